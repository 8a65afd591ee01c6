// POST /threads/stream_query: a project's conversation threads, aggregated over their turn calls
// by the database in one statement (Weave's threads_query_builder): turn count, first start, last
// end, the first and last turn, and p50/p99 of the turn durations.
//
// Percentiles are ClickHouse's `quantile` (Weave's): over the n finished turns' durations in
// whole milliseconds, sorted, at index i = q·(n−1) with k = floor(i), the k-th value (0-based)
// times (k+1−i) plus the next one times (i−k); the k-th alone when it is the last. SQLite has no
// percentile_cont and PostgreSQL's interpolates with another formula, so both databases evaluate
// this one from window ranks, in doubles with the same operations: the same bits on either.
//
// Every thread must be aggregated before the page can be sorted (the default order is by the
// latest turn end), so a page costs a read of the project's turn calls (within the time filter),
// which the partial index calls_thread_turns_idx holds alone; on SQLite that read runs on the
// reader thread.
import { mapInTurns } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/index.ts';
import { castDouble, doubleParam, isoDiffMs } from '../db/dialect-durations.ts';
import { checkPaging } from '../db/paging.ts';
import { turnCondition } from './turn-filter.ts';

type SortField = T.ThreadsSortItem['field'];

interface ThreadRow {
  thread_id: string;
  turn_count: number | string;
  start_time: string;
  last_updated: string;
  first_turn_id: string | null;
  last_turn_id: string | null;
  p50_turn_duration_ms: number | null;
  p99_turn_duration_ms: number | null;
}

// The answer's columns; the spec's enum admits no other sort field.
const SORT_COLUMNS: Record<SortField, true> = {
  thread_id: true,
  turn_count: true,
  start_time: true,
  last_updated: true,
  p50_turn_duration_ms: true,
  p99_turn_duration_ms: true,
};

export async function threadsStreamQuery(db: Db, req: T.ThreadsQueryReq): Promise<T.ThreadSchema[]> {
  const rows = await db.readLong<ThreadRow>(threadsQuery(db, req).compile(db.kysely));
  return mapInTurns(rows, toThreadSchema);
}

/** The one statement (exported for the test of its plan). */
export function threadsQuery(db: Db, req: T.ThreadsQueryReq): RawBuilder<ThreadRow> {
  const paging = checkPaging(req.limit, req.offset);
  const d = db.dialect;
  const q50 = doubleParam(d, 0.5);
  const q99 = doubleParam(d, 0.99);
  // MATERIALIZED: SQLite plans a CTE that window functions read with the other indexes' columns in
  // view and would take calls_started_idx, reading every call of the time range, not turns alone.
  return sql<ThreadRow>`
    with turns as materialized (
      select thread_id, id, started_at, ended_at, ${isoDiffMs(d, sql.ref('ended_at'), sql.ref('started_at'))} as duration_ms
      from calls
      where ${turnCondition(req.project_id, req.filter)}
    ),
    ranked as (
      select thread_id, id, ended_at, started_at, duration_ms,
        row_number() over (partition by thread_id order by started_at asc, id asc) as first_rank,
        row_number() over (partition by thread_id order by ended_at desc nulls last, id desc) as last_rank,
        row_number() over (partition by thread_id order by duration_ms asc nulls last) as duration_rank,
        count(duration_ms) over (partition by thread_id) as finished
      from turns
    ),
    placed as (
      select ranked.*,
        ${q50} * (finished - 1) as i50, floor(${q50} * (finished - 1)) as k50,
        ${q99} * (finished - 1) as i99, floor(${q99} * (finished - 1)) as k99
      from ranked
    ),
    threads as (
      select thread_id, count(*) as turn_count, min(started_at) as start_time, max(ended_at) as last_updated,
        max(case when first_rank = 1 then id end) as first_turn_id,
        max(case when last_rank = 1 and ended_at is not null then id end) as last_turn_id,
        max(i50) as i50, max(k50) as k50,
        max(case when duration_rank = k50 + 1 then duration_ms end) as lo50,
        max(case when duration_rank = k50 + 2 then duration_ms end) as hi50,
        max(i99) as i99, max(k99) as k99,
        max(case when duration_rank = k99 + 1 then duration_ms end) as lo99,
        max(case when duration_rank = k99 + 2 then duration_ms end) as hi99
      from placed
      group by thread_id
      having max(ended_at) is not null
    )
    select thread_id, turn_count, start_time, last_updated, first_turn_id, last_turn_id,
      ${interpolated(db, '50')} as p50_turn_duration_ms,
      ${interpolated(db, '99')} as p99_turn_duration_ms
    from threads
    order by ${orderBy(req.sort_by)}
    ${pageClause(paging)}`;
}

/** ClickHouse's interpolation between the k-th and (k+1)-th durations of threads' columns. */
function interpolated(db: Db, level: '50' | '99'): RawBuilder<number | null> {
  const column = (name: string) => sql.ref(`${name}${level}`);
  const [i, k, lo, hi] = ['i', 'k', 'lo', 'hi'].map(column);
  const loDouble = castDouble(db.dialect, column('lo'));
  return sql<number | null>`(case
    when ${lo} is null then null
    when ${hi} is null then ${loDouble}
    else ${lo} * ((${k} + 1) - ${i}) + ${hi} * (${i} - ${k}) end)`;
}

/**
 * The requested order, nulls last in either direction (ClickHouse's default, which Weave's query
 * keeps), then thread_id ascending so that pages neither repeat nor skip a thread.
 */
function orderBy(sortBy: T.ThreadsQueryReq['sort_by']): RawBuilder<unknown> {
  const items = (sortBy ?? []).map((item) => [item.field, item.direction] as const);
  if (items.length === 0) items.push(['last_updated', 'desc']);
  if (!items.some(([field]) => field === 'thread_id')) items.push(['thread_id', 'asc']);
  return sql.join(
    items.map(([field, direction]) => {
      if (!SORT_COLUMNS[field]) throw new TypeError(`threadsStreamQuery: not a sort field: ${String(field)}`);
      return sql`${sql.ref(field)} ${direction === 'desc' ? sql`desc` : sql`asc`} nulls last`;
    }),
  );
}

/** LIMIT/OFFSET; SQLite has no OFFSET without a LIMIT (as applyPaging does for query builders). */
function pageClause({ limit, offset }: ReturnType<typeof checkPaging>): RawBuilder<unknown> {
  if (limit === undefined && offset === 0) return sql``;
  const limitClause = sql`limit ${limit ?? Number.MAX_SAFE_INTEGER}`;
  return offset > 0 ? sql`${limitClause} offset ${offset}` : limitClause;
}

function toThreadSchema(row: ThreadRow): T.ThreadSchema {
  return {
    thread_id: row.thread_id,
    turn_count: Number(row.turn_count),
    start_time: row.start_time,
    last_updated: row.last_updated,
    first_turn_id: row.first_turn_id,
    last_turn_id: row.last_turn_id,
    p50_turn_duration_ms: row.p50_turn_duration_ms === null ? null : Number(row.p50_turn_duration_ms),
    p99_turn_duration_ms: row.p99_turn_duration_ms === null ? null : Number(row.p99_turn_duration_ms),
  };
}
