// The calls of the calls/stats tests: a project's hour of calls (finished, failed, running, one
// child, usage of two models, a deleted call, calls just outside the window) beside another
// project's, and prices of one model.
import type { Db } from '../../src/db/index.ts';
import { callsOf, ctx, endReq, startReq } from './call-fixtures.ts';

export const P = 'stats/main';
export const OTHER = 'stats/other';
export const H = '2025-06-03T10:';

interface Spec {
  id: string;
  start: string;
  end?: string;
  op?: string;
  parent?: string;
  exception?: string;
  usage?: Record<string, unknown>;
  project?: string;
}

const CALLS: Spec[] = [
  {
    id: 'c1',
    start: `${H}00:00.000Z`,
    end: `${H}00:00.100Z`,
    usage: { 'gpt-a': { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
  },
  {
    id: 'c2',
    start: `${H}05:00.000Z`,
    end: `${H}05:00.300Z`,
    exception: 'boom',
    usage: {
      'gpt-a': { input_tokens: 7, output_tokens: 3, total_tokens: 10, cache_read_input_tokens: 2 },
      'claude-b': { prompt_tokens: 100, completion_tokens: 50, total_tokens: 'many' },
    },
  },
  { id: 'c3', start: `${H}10:00.000Z`, end: `${H}10:01.000Z`, op: 'op_b', parent: 'c1' },
  // Unfinished: counted, but no latency.
  { id: 'c4', start: `${H}40:00.000Z` },
  {
    id: 'c5',
    start: `${H}59:59.999Z`,
    end: '2025-06-03T11:00:00.049Z',
    op: 'op_b',
    usage: { 'gpt-a': { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
  },
  // Outside [10:00, 11:00): at the end, and a millisecond before the start.
  { id: 'c6', start: '2025-06-03T11:00:00.000Z', end: '2025-06-03T11:00:01.000Z', usage: { 'gpt-a': { prompt_tokens: 1000 } } },
  { id: 'c7', start: '2025-06-03T09:59:59.999Z', end: `${H}00:00.000Z`, usage: { 'gpt-a': { prompt_tokens: 1000 } } },
  // Deleted, and another project's.
  { id: 'c8', start: `${H}01:00.000Z`, end: `${H}01:01.000Z`, usage: { 'gpt-a': { prompt_tokens: 1000 } } },
  { id: 'x1', start: `${H}00:00.000Z`, end: `${H}00:09.000Z`, project: OTHER, usage: { 'other-model': { prompt_tokens: 5000 } } },
];

export const HOUR = { start: `${H}00:00Z`, end: '2025-06-03T11:00:00Z', granularity: 900 };
export const TIMES = ['10:00', '10:15', '10:30', '10:45'].map((t) => `2025-06-03T${t}:00.000Z`);

/** Writes CALLS and the prices into a fresh database. */
export async function seedStats(db: Db): Promise<void> {
  const calls = callsOf(db);
  for (const c of CALLS) {
    const project = c.project ?? P;
    const start = {
      id: c.id,
      trace_id: c.parent ?? c.id,
      started_at: c.start,
      op_name: c.op ?? 'op_a',
      ...(c.parent ? { parent_id: c.parent } : {}),
    };
    await calls.callStart(startReq(project, start), ctx);
    const summary = c.usage ? { usage: c.usage } : {};
    if (c.end)
      await calls.callEnd(endReq(project, c.id, { ended_at: c.end, summary, ...(c.exception ? { exception: c.exception } : {}) }), ctx);
  }
  await db.kysely.updateTable('calls').set({ deleted_at: '2025-06-04T00:00:00.000Z' }).where('id', '=', 'c8').execute();
  const price = { provider_id: 'default', prompt_token_cost_unit: 'USD', completion_token_cost_unit: 'USD', svc_user_id: 'alice' };
  await db.kysely
    .insertInto('llm_token_prices')
    .values([
      // An older price of gpt-a, and the newest, which the costs use (with a cache-read price).
      {
        ...price,
        project_id: P,
        id: 'p-old',
        llm_id: 'gpt-a',
        effective_date: '2025-01-01T00:00:00.000Z',
        created_at: '2025-01-01T00:00:00.000Z',
        prompt_token_cost: '9',
        completion_token_cost: '9',
        cache_read_input_token_cost: null,
        cache_creation_input_token_cost: null,
      },
      {
        ...price,
        project_id: P,
        id: 'p-new',
        llm_id: 'gpt-a',
        effective_date: '2025-02-01T00:00:00.000Z',
        created_at: '2025-02-01T00:00:00.000Z',
        prompt_token_cost: '0.5',
        completion_token_cost: '2',
        cache_read_input_token_cost: '0.1',
        cache_creation_input_token_cost: null,
      },
      // Another project's price of claude-b: never this project's.
      {
        ...price,
        project_id: OTHER,
        id: 'p-other',
        llm_id: 'claude-b',
        effective_date: '2025-02-01T00:00:00.000Z',
        created_at: '2025-02-01T00:00:00.000Z',
        prompt_token_cost: '1',
        completion_token_cost: '1',
        cache_read_input_token_cost: null,
        cache_creation_input_token_cost: null,
      },
    ])
    .execute();
}
