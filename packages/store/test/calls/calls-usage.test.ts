// calls/usage and trace/usage against answers computed by hand: each root rolled up over all its
// descendants, several models, unfinished calls, costs at the price in effect when each call
// started (the project's, then the catalogue's), Weave's limit, the filters, and another
// project's calls (even one naming this project's trace and parent) never counted.
import { computeCosts } from '@weft/core';
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { callsUsage, traceUsage, usageCallsQuery } from '../../src/calls/calls-usage.ts';
import { filterOf } from '../../src/calls/calls-stream-query.ts';
import type { Db } from '../../src/db/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { queryPlan } from '../query-plan.ts';
import { callsOf, catalogue, ctx, endReq, startReq } from './call-fixtures.ts';

const P = 'usage/main';
const OTHER = 'usage/other';
const PRICED = 'meta-llama/Llama-3.1-8B-Instruct';
const at = (hhmm: string) => `2025-06-03T${hhmm}:00.000Z`;

const A_PRICED = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, requests: 2 };
const R2_PRICED = { prompt_tokens: 50, completion_tokens: 10 };

interface Spec {
  id: string;
  trace: string;
  parent?: string;
  start: string;
  end?: boolean;
  usage?: Record<string, unknown>;
  project?: string;
}

// Trace t1: r1 → a → (b running, c); trace t2: r2 → d (deleted); another project's x1 names t1 and r1.
const CALLS: Spec[] = [
  {
    id: 'r1',
    trace: 't1',
    start: at('10:00'),
    end: true,
    usage: { 'gpt-a': { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, requests: 1 } },
  },
  {
    id: 'a',
    trace: 't1',
    parent: 'r1',
    start: at('10:10'),
    end: true,
    usage: { 'gpt-a': { input_tokens: 7, output_tokens: 3, requests: 1 }, [PRICED]: A_PRICED },
  },
  { id: 'b', trace: 't1', parent: 'a', start: at('10:20') },
  {
    id: 'c',
    trace: 't1',
    parent: 'a',
    start: at('10:45'),
    end: true,
    usage: {
      'gpt-a': { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, requests: 1, prompt_tokens_details: { cached_tokens: 1 } },
      empty: {},
    },
  },
  { id: 'r2', trace: 't2', start: at('11:00'), end: true, usage: { [PRICED]: R2_PRICED } },
  { id: 'd', trace: 't2', parent: 'r2', start: at('11:01'), end: true, usage: { 'gpt-a': { prompt_tokens: 1000 } } },
  { id: 'x1', trace: 't1', parent: 'r1', start: at('10:05'), end: true, project: OTHER, usage: { 'gpt-a': { prompt_tokens: 5000 } } },
];

async function seed(db: Db): Promise<void> {
  const calls = callsOf(db);
  for (const c of CALLS) {
    const project = c.project ?? P;
    await calls.callStart(
      startReq(project, { id: c.id, trace_id: c.trace, started_at: c.start, ...(c.parent ? { parent_id: c.parent } : {}) }),
      ctx,
    );
    if (c.end)
      await calls.callEnd(
        endReq(project, c.id, { ended_at: c.start.replace(':00.000Z', ':30.000Z'), summary: c.usage ? { usage: c.usage } : {} }),
        ctx,
      );
  }
  await db.kysely
    .updateTable('calls')
    .set({ deleted_at: at('12:00') })
    .where('id', '=', 'd')
    .execute();
  const price = {
    provider_id: 'default',
    prompt_token_cost_unit: 'USD',
    completion_token_cost_unit: 'USD',
    svc_user_id: 'alice',
    cache_creation_input_token_cost: null,
  };
  await db.kysely
    .insertInto('llm_token_prices')
    .values([
      // gpt-a costs 9 a token until 10:30, then 0.5 (prompt), 2 (completion) and 0.1 (cache read).
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
      },
      {
        ...price,
        project_id: P,
        id: 'p-new',
        llm_id: 'gpt-a',
        effective_date: at('10:30'),
        created_at: at('09:00'),
        prompt_token_cost: '0.5',
        completion_token_cost: '2',
        cache_read_input_token_cost: '0.1',
      },
      // Another project's price of the catalogue's model: never this project's.
      {
        ...price,
        project_id: OTHER,
        id: 'p-other',
        llm_id: PRICED,
        effective_date: '2025-01-01T00:00:00.000Z',
        created_at: '2025-01-01T00:00:00.000Z',
        prompt_token_cost: '1',
        completion_token_cost: '1',
        cache_read_input_token_cost: null,
      },
    ])
    .execute();
}

const NO_COSTS = {
  prompt_tokens_total_cost: null,
  completion_tokens_total_cost: null,
  cache_read_input_tokens_total_cost: null,
  cache_creation_input_tokens_total_cost: null,
};
const tokens = (requests: number, prompt: number, completion: number, total: number, cacheRead = 0) => ({
  requests,
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: total,
  cache_read_input_tokens: cacheRead,
  cache_creation_input_tokens: 0,
});
// By hand: r1 10/5/15, a 7/3/(10), c 1/1/2 with 1 cached (one request each; c's empty entry is no usage); PRICED: a 100/20/120 in 2 requests, r2 50/10/(60).
const R1 = { 'gpt-a': { ...tokens(3, 18, 9, 27, 1), ...NO_COSTS }, [PRICED]: { ...tokens(2, 100, 20, 120), ...NO_COSTS } };
const A = { 'gpt-a': { ...tokens(2, 8, 4, 12, 1), ...NO_COSTS }, [PRICED]: { ...tokens(2, 100, 20, 120), ...NO_COSTS } };
const C = { 'gpt-a': { ...tokens(1, 1, 1, 2, 1), ...NO_COSTS } };
// r2 stores no request count: 0, as Weave counts.
const R2 = { [PRICED]: { ...tokens(0, 50, 10, 60), ...NO_COSTS } };

describeEachDialect('calls usage', (getDb) => {
  const calls = (req: Partial<T.CallsUsageReq>) => callsUsage(getDb(), catalogue, { project_id: P, call_ids: [], ...req });
  const trace = (req: Partial<T.TraceUsageReq>) => traceUsage(getDb(), catalogue, { project_id: P, ...req });

  beforeAll(() => seed(getDb()));

  it('rolls each root up over all its descendants, by model, in request order', async () => {
    const res = await calls({ call_ids: ['r2', 'r1', 'missing', 'x1'] });
    expect(res).toEqual({ call_usage: { r2: R2, r1: R1, missing: {}, x1: {} }, unfinished_call_ids: ['b'] });
    expect(Object.keys(res.call_usage)).toEqual(['r2', 'r1', 'missing', 'x1']);
    // A call inside a trace: its own subtree only, the whole trace read (so b is unfinished).
    expect(await calls({ call_ids: ['a'] })).toEqual({ call_usage: { a: A }, unfinished_call_ids: ['b'] });
    expect(await calls({ call_ids: [] })).toEqual({ call_usage: {}, unfinished_call_ids: [] });
  });

  it('prices each call at the price in effect when it started, the project price before the catalogue', async () => {
    const res = await calls({ call_ids: ['r1', 'r2'], include_costs: true });
    const priced = (usage: Record<string, unknown>) => computeCosts(usage, catalogue)![PRICED]!;
    const aCost = priced({ [PRICED]: A_PRICED });
    const r2Cost = priced({ [PRICED]: R2_PRICED });
    expect(aCost.prompt_tokens_total_cost).toBeGreaterThan(0);
    // gpt-a: r1 and a at 9 a token (10 + 7 prompt, 5 + 3 completion); c at the newer price, its one
    // prompt token a cache read at 0.1 and its completion token at 2. As Weave prices usage, the
    // prompt's cost is its uncached tokens' alone: the four costs add up.
    expect(res.call_usage.r1!['gpt-a']).toEqual({
      ...tokens(3, 18, 9, 27, 1),
      prompt_tokens_total_cost: 17 * 9,
      completion_tokens_total_cost: 8 * 9 + 2,
      cache_read_input_tokens_total_cost: 0.1,
      cache_creation_input_tokens_total_cost: 0,
    });
    expect(res.call_usage.r1![PRICED]).toEqual({
      ...tokens(2, 100, 20, 120),
      prompt_tokens_total_cost: aCost.prompt_tokens_total_cost,
      completion_tokens_total_cost: aCost.completion_tokens_total_cost,
      cache_read_input_tokens_total_cost: 0,
      cache_creation_input_tokens_total_cost: 0,
    });
    // The other project's price of the model is not this project's: the catalogue's applies.
    expect(res.call_usage.r2![PRICED]).toMatchObject({
      prompt_tokens_total_cost: r2Cost.prompt_tokens_total_cost,
      completion_tokens_total_cost: r2Cost.completion_tokens_total_cost,
    });
    expect(r2Cost.prompt_tokens_total_cost).not.toBe(50);
  });

  it('gives a model without any price zero costs', async () => {
    const db = getDb();
    await callsOf(db).callStart(startReq(P, { id: 'n1', trace_id: 't3', started_at: at('13:00') }), ctx);
    await callsOf(db).callEnd(
      endReq(P, 'n1', { ended_at: at('13:01'), summary: { usage: { 'no/such-model': { prompt_tokens: 4 } } } }),
      ctx,
    );
    const res = await calls({ call_ids: ['n1'], include_costs: true });
    expect(res.call_usage.n1).toEqual({
      'no/such-model': {
        ...tokens(0, 4, 0, 4),
        prompt_tokens_total_cost: 0,
        completion_tokens_total_cost: 0,
        cache_read_input_tokens_total_cost: 0,
        cache_creation_input_tokens_total_cost: 0,
      },
    });
  });

  it("bounds the calls read by Weave's limit: one trace over it is refused, traces are batched under it", async () => {
    // t1 has 4 visible calls, t2 one (d is deleted).
    await expect(calls({ call_ids: ['r1'], limit: 3 })).rejects.toMatchObject({ status: 413, errorType: 'RequestTooLarge' });
    expect(await calls({ call_ids: ['r1', 'r2'], limit: 4 })).toEqual({ call_usage: { r1: R1, r2: R2 }, unfinished_call_ids: ['b'] });
    expect(await calls({ call_ids: ['r1', 'r2'], limit: 5 })).toEqual({ call_usage: { r1: R1, r2: R2 }, unfinished_call_ids: ['b'] });
    // All the roots' traces together are bounded too (100,000 calls; 5 here).
    await expect(callsUsage(getDb(), catalogue, { project_id: P, call_ids: ['r1', 'r2'] }, 4)).rejects.toMatchObject({ status: 413 });
    expect(await callsUsage(getDb(), catalogue, { project_id: P, call_ids: ['r1', 'r2'] }, 5)).toEqual({
      call_usage: { r1: R1, r2: R2 },
      unfinished_call_ids: ['b'],
    });
    for (const limit of [0, 10_001]) {
      await expect(calls({ call_ids: ['r1'], limit })).rejects.toMatchObject({ status: 422, detail: [{ loc: ['body', 'limit'] }] });
    }
  });

  it('answers every matching call of a trace, each rolled up over its descendants among them', async () => {
    const res = await trace({ filter: { trace_ids: ['t1'] } });
    expect(res).toEqual({ call_usage: { r1: R1, a: A, b: {}, c: C }, unfinished_call_ids: ['b'] });
    expect(Object.keys(res.call_usage)).toEqual(['r1', 'a', 'b', 'c']);
    // Without a (the filter), c is no descendant of r1 among the matching calls.
    const { 'gpt-a': own } = (await trace({ filter: { call_ids: ['r1', 'c'] } })).call_usage.r1!;
    expect(own).toEqual({ ...tokens(1, 10, 5, 15), ...NO_COSTS });
    // The query narrows as calls/stream_query's does.
    const running = await trace({
      filter: { trace_ids: ['t1'] },
      query: { $expr: { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'running' }] } } as never,
    });
    expect(running).toEqual({ call_usage: { b: {} }, unfinished_call_ids: ['b'] });
    // Another project's trace t1 holds x1 only.
    const other = await traceUsage(getDb(), catalogue, { project_id: OTHER, filter: { trace_ids: ['t1'] } });
    expect(Object.keys(other.call_usage)).toEqual(['x1']);
  });

  it('refuses more matching calls than the limit rather than answering over a part', async () => {
    await expect(trace({ filter: { trace_ids: ['t1'] }, limit: 3 })).rejects.toMatchObject({ status: 413, errorType: 'RequestTooLarge' });
    expect(Object.keys((await trace({ filter: { trace_ids: ['t1'] }, limit: 4 })).call_usage)).toHaveLength(4);
    const costs = await trace({ filter: { call_ids: ['c'] }, include_costs: true });
    expect(costs.call_usage.c!['gpt-a']).toMatchObject({
      prompt_tokens_total_cost: 0,
      cache_read_input_tokens_total_cost: 0.1,
      completion_tokens_total_cost: 2,
    });
  });

  it("reads the traces' calls through calls_trace_idx, not the project's calls by start", async () => {
    const db = getDb();
    const query = usageCallsQuery(db, filterOf(db, P, { trace_ids: ['t1', 't2'] }), undefined, 10_000);
    const plan = await queryPlan(db, query.compile(), { seqscanOff: 'calls' });
    // No ORDER BY to walk calls_started_idx for; on SQLite the trace ids are looked up (not a
    // range `trace_id > NULL` over the project's traces). PostgreSQL's choice on a table this small
    // is any index on project_id.
    expect(plan).not.toContain('calls_started_idx');
    if (db.dialect === 'sqlite') expect(plan).toContain('calls_trace_idx (project_id=? AND trace_id=?)');
  });
});
