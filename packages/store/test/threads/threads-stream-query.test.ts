// threadsStreamQuery against answers computed by hand: turn calls only (not their children, not
// deleted ones, not other projects'), first and last turns, p50/p99 by ClickHouse's linear
// interpolation, strict time bounds at UTC day and millisecond edges, sort orders and pages.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { threadsQuery, threadsStreamQuery } from '../../src/threads/threads-stream-query.ts';
import { describeEachDialect } from '../dialects.ts';
import { queryPlan } from '../query-plan.ts';
import { callsOf, ctx, endReq, startReq } from '../calls/call-fixtures.ts';

const P = 'threads/main';
const DAY = '2025-06-03T';

/** A call of thread `thread`; a turn unless `turnOf` names another call. */
interface Spec {
  id: string;
  thread: string;
  start: string;
  end?: string;
  turnOf?: string;
  project?: string;
}

const CALLS: Spec[] = [
  // t-alpha: three finished turns (1000, 250, 3500 ms), one unfinished, one child that is no turn
  // (it ends last of all), one deleted turn (also ending late).
  { id: 'a-1', thread: 't-alpha', start: `${DAY}10:00:00.000Z`, end: `${DAY}10:00:01.000Z` },
  { id: 'a-1-child', thread: 't-alpha', turnOf: 'a-1', start: `${DAY}10:00:00.100Z`, end: `${DAY}11:00:00.000Z` },
  { id: 'a-2', thread: 't-alpha', start: `${DAY}10:01:00.000Z`, end: `${DAY}10:01:00.250Z` },
  { id: 'a-3', thread: 't-alpha', start: `${DAY}10:02:00.000Z`, end: `${DAY}10:02:03.500Z` },
  { id: 'a-4', thread: 't-alpha', start: `${DAY}10:03:00.000Z` },
  { id: 'a-5', thread: 't-alpha', start: `${DAY}10:04:00.000Z`, end: `${DAY}12:00:00.000Z` },
  // t-beta: one turn of 2 ms across midnight UTC.
  { id: 'b-1', thread: 't-beta', start: `${DAY}23:59:59.999Z`, end: '2025-06-04T00:00:00.001Z' },
  // t-delta: two turns with the same start, end and duration (10 ms): ties broken by id.
  { id: 'd-2', thread: 't-delta', start: `${DAY}09:00:00.000Z`, end: `${DAY}09:00:00.010Z` },
  { id: 'd-1', thread: 't-delta', start: `${DAY}09:00:00.000Z`, end: `${DAY}09:00:00.010Z` },
  // t-gamma: no turn has ended, so no last_updated: left out, as Weave skips it.
  { id: 'g-1', thread: 't-gamma', start: `${DAY}08:00:00.000Z` },
  // The empty thread id: only when asked for by name.
  { id: 'e-1', thread: '', start: `${DAY}07:00:00.000Z`, end: `${DAY}07:00:00.004Z` },
  // Another project's thread of the same name.
  { id: 'x-1', thread: 't-alpha', start: `${DAY}10:00:00.000Z`, end: `${DAY}13:00:00.000Z`, project: 'threads/other' },
];

// ClickHouse's quantile over sorted values: i = q·(n−1), k = floor(i), v[k]·(k+1−i) + v[k+1]·(i−k).
const alpha: T.ThreadSchema = {
  thread_id: 't-alpha',
  turn_count: 4,
  start_time: `${DAY}10:00:00.000Z`,
  last_updated: `${DAY}10:02:03.500Z`,
  first_turn_id: 'a-1',
  last_turn_id: 'a-3',
  // [250, 1000, 3500]: p50 at i = 1 is 1000; p99 at i = 1.98 between 1000 and 3500.
  p50_turn_duration_ms: 1000,
  p99_turn_duration_ms: 1000 * (2 - 1.98) + 3500 * (1.98 - 1),
};
const beta: T.ThreadSchema = {
  thread_id: 't-beta',
  turn_count: 1,
  start_time: `${DAY}23:59:59.999Z`,
  last_updated: '2025-06-04T00:00:00.001Z',
  first_turn_id: 'b-1',
  last_turn_id: 'b-1',
  p50_turn_duration_ms: 2,
  p99_turn_duration_ms: 2,
};
const delta: T.ThreadSchema = {
  thread_id: 't-delta',
  turn_count: 2,
  start_time: `${DAY}09:00:00.000Z`,
  last_updated: `${DAY}09:00:00.010Z`,
  first_turn_id: 'd-1',
  last_turn_id: 'd-2',
  p50_turn_duration_ms: 10 * (1 - 0.5) + 10 * 0.5,
  p99_turn_duration_ms: 10 * (1 - 0.99) + 10 * 0.99,
};

describeEachDialect('threads stream query', (getDb) => {
  const query = (req: Omit<T.ThreadsQueryReq, 'project_id'>) => threadsStreamQuery(getDb(), { project_id: P, ...req });
  const ids = (threads: T.ThreadSchema[]) => threads.map((t) => t.thread_id);

  beforeAll(async () => {
    const calls = callsOf(getDb());
    for (const c of CALLS) {
      const project = c.project ?? P;
      await calls.callStart(startReq(project, { id: c.id, started_at: c.start, thread_id: c.thread, turn_id: c.turnOf ?? c.id }), ctx);
      if (c.end) await calls.callEnd(endReq(project, c.id, { ended_at: c.end }), ctx);
    }
    await getDb().kysely.updateTable('calls').set({ deleted_at: '2025-06-05T00:00:00.000Z' }).where('id', '=', 'a-5').execute();
  });

  it('aggregates the turn calls of each thread, newest last_updated first', async () => {
    expect(await query({})).toEqual([beta, alpha, delta]);
  });

  it('sorts by every field in either direction, ties by thread_id', async () => {
    expect(ids(await query({ sort_by: [{ field: 'turn_count', direction: 'desc' }] }))).toEqual(['t-alpha', 't-delta', 't-beta']);
    expect(ids(await query({ sort_by: [{ field: 'p50_turn_duration_ms', direction: 'asc' }] }))).toEqual(['t-beta', 't-delta', 't-alpha']);
    expect(ids(await query({ sort_by: [{ field: 'p99_turn_duration_ms', direction: 'desc' }] }))).toEqual(['t-alpha', 't-delta', 't-beta']);
    expect(ids(await query({ sort_by: [{ field: 'start_time', direction: 'asc' }] }))).toEqual(['t-delta', 't-alpha', 't-beta']);
    expect(ids(await query({ sort_by: [{ field: 'last_updated', direction: 'asc' }] }))).toEqual(['t-delta', 't-alpha', 't-beta']);
    expect(ids(await query({ sort_by: [{ field: 'thread_id', direction: 'desc' }] }))).toEqual(['t-delta', 't-beta', 't-alpha']);
    // Equal turn counts (1 and 1 after the filter) fall back to thread_id ascending.
    const tied = await query({ filter: { thread_ids: ['t-beta', ''] }, sort_by: [{ field: 'turn_count', direction: 'asc' }] });
    expect(ids(tied)).toEqual(['', 't-beta']);
  });

  it('pages with limit and offset', async () => {
    expect(ids(await query({ limit: 1, offset: 1 }))).toEqual(['t-alpha']);
    expect(ids(await query({ offset: 2 }))).toEqual(['t-delta']);
    expect(ids(await query({ limit: 2 }))).toEqual(['t-beta', 't-alpha']);
    expect(await query({ limit: 0 })).toEqual([]);
    expect(await query({ offset: 3 })).toEqual([]);
  });

  it('filters by thread id; the empty id only when named', async () => {
    expect(await query({ filter: { thread_ids: ['t-beta', 'nope'] } })).toEqual([beta]);
    expect(await query({ filter: { thread_ids: [] } })).toEqual([beta, alpha, delta]);
    expect(await query({ filter: { thread_ids: [''] } })).toEqual([
      {
        ...beta,
        thread_id: '',
        start_time: `${DAY}07:00:00.000Z`,
        last_updated: `${DAY}07:00:00.004Z`,
        first_turn_id: 'e-1',
        last_turn_id: 'e-1',
        p50_turn_duration_ms: 4,
        p99_turn_duration_ms: 4,
      },
    ]);
    // A thread none of whose turns ended has no last_updated and is left out.
    expect(await query({ filter: { thread_ids: ['t-gamma'] } })).toEqual([]);
  });

  it('bounds each turn start strictly, before aggregating', async () => {
    // a-1 starts exactly at the bound: out. t-alpha is then a-2, a-3 and a-4: [250, 3500].
    const after = await query({ filter: { after_datetime: `${DAY}10:00:00.000Z` } });
    expect(after).toEqual([
      beta,
      {
        ...alpha,
        turn_count: 3,
        start_time: `${DAY}10:01:00.000Z`,
        first_turn_id: 'a-2',
        p50_turn_duration_ms: 250 * (1 - 0.5) + 3500 * 0.5,
        p99_turn_duration_ms: 250 * (1 - 0.99) + 3500 * 0.99,
      },
    ]);
    // b-1 starts at 23:59:59.999 UTC, the same instant as 01:59:59.999+02:00: out.
    expect(ids(await query({ filter: { before_datetime: `${DAY}23:59:59.999Z` } }))).toEqual(['t-alpha', 't-delta']);
    expect(ids(await query({ filter: { before_datetime: '2025-06-04T01:59:59.999+02:00' } }))).toEqual(['t-alpha', 't-delta']);
    // Past the millisecond: 23:59:59.999 < 23:59:59.9991, and 10:00:00.000 > 09:59:59.9999.
    expect(ids(await query({ filter: { before_datetime: `${DAY}23:59:59.9991Z` } }))).toEqual(['t-beta', 't-alpha', 't-delta']);
    const justBefore = await query({ filter: { after_datetime: `${DAY}09:59:59.9999Z`, thread_ids: ['t-alpha'] } });
    expect(justBefore).toEqual([alpha]);
    // Both bounds: only t-delta's turns start within (08:00, 10:00).
    expect(await query({ filter: { after_datetime: `${DAY}08:00:00Z`, before_datetime: `${DAY}10:00:00Z` } })).toEqual([delta]);
  });

  it('refuses an unreadable bound with 400', async () => {
    await expect(query({ filter: { after_datetime: 'yesterday' } })).rejects.toMatchObject({ status: 400 });
  });

  it("reads the turns through the partial index, not the project's other calls", async () => {
    const db = getDb();
    for (const filter of [{ after_datetime: `${DAY}08:00:00Z` }, {}, { thread_ids: ['t-beta'] }]) {
      const plan = await queryPlan(db, threadsQuery(db, { project_id: P, filter, limit: 10 }).compile(db.kysely));
      expect(plan, JSON.stringify(filter)).toContain('calls_thread_turns_idx');
    }
  });
});
