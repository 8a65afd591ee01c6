// calls/stats's two statements, one per kind of bucket, each aggregated by the database over the
// project's calls started in the window (the index calls_started_idx: project_id, started_at):
// call metrics by bucket, usage metrics by bucket and model (one row per member of each call's
// summary.usage, as Weave's ARRAY JOIN over it). Only buckets with rows come back; the answer's
// empty buckets are written from the window (calls-stats.ts).
//
// Percentiles are ClickHouse's `quantile` (Weave's) over each group's values: sorted, at index
// i = q·(n−1) with k = floor(i), the k-th value (0-based) times (k+1−i) plus the next one times
// (i−k); the k-th alone when it is the last. Both databases compute it from window ranks in
// doubles with the same operations (as threads/stream_query does). ClickHouse's `quantile`
// samples a group of more than 8,192 values; Weft ranks them all, so past that size Weft's
// answer is exact where Weave's is an estimate.
import { sql, type OperationNodeSource, type RawBuilder } from 'kysely';
import type * as T from '@weft/types';
import type { Db, Dialect } from '../db/index.ts';
import { averageAsDouble, castDouble, doubleParam, isoDiffMs } from '../db/dialect-durations.ts';
import { bucketIndex } from '../db/dialect-stats.ts';
import { jsonObjectMembers, memberNumber } from '../db/dialect-json-objects.ts';
import { filterOf } from './calls-stream-query.ts';
import type { MetricColumns, StatsWindow } from './stats-window.ts';

/** A row of either statement: `b` (bucket index), `model` (usage), `count`, then one column per key. */
export type StatsRow = Record<string, unknown>;

/** Hidden sums the costs are computed from (calls-stats.ts); never answered as such. */
export const COST_SUMS = ['cost_in', 'cost_out', 'cost_cache_read', 'cost_cache_creation'] as const;

type Extract = (d: Dialect) => RawBuilder<unknown>;

const CALL_METRICS: Record<string, Extract> = {
  latency_ms: (d) => isoDiffMs(d, sql.ref('ended_at'), sql.ref('started_at')),
  call_count: () => sql`1`,
  error_count: () => sql`(case when exception is not null then 1 else 0 end)`,
};

const num = (d: Dialect, ...path: string[]) => memberNumber(d, 'e', path);
const zeroOr = (x: RawBuilder<unknown>) => sql`coalesce(${x}, 0)`;

const USAGE_METRICS: Record<string, Extract> = {
  input_tokens: (d) => sql`(${zeroOr(num(d, 'prompt_tokens'))} + ${zeroOr(num(d, 'input_tokens'))})`,
  output_tokens: (d) => sql`(${zeroOr(num(d, 'completion_tokens'))} + ${zeroOr(num(d, 'output_tokens'))})`,
  total_tokens: (d) => num(d, 'total_tokens'),
  cache_read_input_tokens: (d) => num(d, 'cache_read_input_tokens'),
  cache_creation_input_tokens: (d) => num(d, 'cache_creation_input_tokens'),
};

/**
 * What the costs need per usage row: input and output as their metrics; cache reads as Weft's call
 * costs read them (OpenAI's names), else Anthropic's `cache_read_input_tokens` (the router writes both).
 */
const COST_INPUTS: Record<(typeof COST_SUMS)[number], Extract> = {
  cost_in: (d) => USAGE_METRICS.input_tokens!(d),
  cost_out: (d) => USAGE_METRICS.output_tokens!(d),
  cost_cache_read: (d) =>
    zeroOr(
      sql`coalesce(${num(d, 'cached_tokens')}, ${num(d, 'prompt_tokens_details', 'cached_tokens')}, ${num(d, 'input_tokens_details', 'cached_tokens')}, ${num(d, 'cache_read_input_tokens')})`,
    ),
  cost_cache_creation: (d) => zeroOr(num(d, 'cache_creation_input_tokens')),
};

/** The call metrics' statement: one row per bucket with calls. */
export function callBucketsQuery(db: Db, req: T.CallStatsReq, window: StatsWindow, metrics: MetricColumns[]): RawBuilder<StatsRow> {
  const d = db.dialect;
  const base = windowCalls(db, req, window).select(metrics.map((m) => CALL_METRICS[m.metric]!(d).as(`m_${m.metric}`)));
  return grouped(d, base, [], metrics, false);
}

/** The usage metrics' statement: one row per bucket and model with usage. */
export function usageBucketsQuery(
  db: Db,
  req: T.CallStatsReq,
  window: StatsWindow,
  metrics: MetricColumns[],
  withCosts: boolean,
  rowCap: number,
): RawBuilder<StatsRow> {
  const d = db.dialect;
  const tokenMetrics = metrics.filter((m) => USAGE_METRICS[m.metric]);
  const values = [
    ...tokenMetrics.map((m) => sql`${USAGE_METRICS[m.metric]!(d)} as ${sql.id(`m_${m.metric}`)}`),
    ...(withCosts ? COST_SUMS.map((name) => sql`${COST_INPUTS[name](d)} as ${sql.id(`m_${name}`)}`) : []),
  ];
  const calls = windowCalls(db, req, window).select('calls.summary');
  const base = sql`(select c.b, e.key as model${sql.join(
    values.map((v) => sql`, ${v}`),
    sql``,
  )} from ${calls} as c, ${jsonObjectMembers(d, 'c.summary', 'usage', 'e')})`;
  // One row past the cap is enough to know the answer would be too long.
  return sql<StatsRow>`${grouped(d, base, ['model'], tokenMetrics, withCosts)} limit ${rowCap + 1}`;
}

/**
 * The project's calls started in the window that pass the filter (calls/stream_query's), with
 * their bucket as `b`: a range of the index (project_id, started_at).
 */
function windowCalls(db: Db, req: T.CallStatsReq, window: StatsWindow) {
  return db.kysely
    .selectFrom('calls')
    .where(filterOf(db, req.project_id, req.filter ?? {}))
    .where('calls.started_at', '>=', window.startIso)
    .where('calls.started_at', '<', window.endIso)
    .select(bucketIndex(db.dialect, sql.ref('started_at'), window.originMs, window.granularityS * 1000).as('b'));
}

/**
 * Aggregates `base` (columns b, the group columns, and m_<metric> per metric) by bucket and
 * group: sums, averages and counts of the values present, minimum and maximum, the percentiles
 * (by ranks, see the top of this file), and count(*) as `count`.
 */
function grouped(
  d: Dialect,
  /** A parenthesised select: a query builder, or raw SQL in parentheses. */
  base: OperationNodeSource,
  groups: string[],
  metrics: MetricColumns[],
  withCosts: boolean,
): RawBuilder<StatsRow> {
  const partition = sql.join([sql.ref('b'), ...groups.map((g) => sql.ref(g))]);
  const ranked = metrics.filter((m) => m.percentiles.length > 0);
  const rankColumns = ranked.flatMap((m) => {
    const value = sql.ref(`m_${m.metric}`);
    return [
      sql`row_number() over (partition by ${partition} order by ${value} asc nulls last) as ${sql.id(`r_${m.metric}`)}`,
      sql`count(${value}) over (partition by ${partition}) as ${sql.id(`n_${m.metric}`)}`,
    ];
  });
  const costSums = withCosts ? COST_SUMS.map((name) => sql`sum(${sql.ref(`m_${name}`)}) as ${sql.id(name)}`) : [];
  const aggregates: RawBuilder<unknown>[] = [sql`count(*) as count`, ...costSums];
  const finals: RawBuilder<unknown>[] = [sql`count`, ...(withCosts ? COST_SUMS.map((name) => sql.ref(name)) : [])];
  for (const m of metrics) {
    const value = sql.ref(`m_${m.metric}`);
    for (const a of m.aggregations) {
      const key = `${a}_${m.metric}`;
      const fn = {
        sum: sql`sum(${value})`,
        avg: averageAsDouble(d, value),
        min: sql`min(${value})`,
        max: sql`max(${value})`,
        count: sql`count(${value})`,
      }[a];
      aggregates.push(sql`${fn} as ${sql.id(key)}`);
      finals.push(sql.ref(key));
    }
    m.percentiles.forEach((p, j) => {
      const q = doubleParam(d, p.level);
      const n = sql.ref(`n_${m.metric}`);
      const r = sql.ref(`r_${m.metric}`);
      const [i, k, lo, hi] = ['i', 'k', 'lo', 'hi'].map((part) => `${part}_${j}_${m.metric}`) as [string, string, string, string];
      aggregates.push(
        sql`max(${q} * (${n} - 1)) as ${sql.id(i)}`,
        sql`max(floor(${q} * (${n} - 1))) as ${sql.id(k)}`,
        sql`max(case when ${r} = floor(${q} * (${n} - 1)) + 1 then ${value} end) as ${sql.id(lo)}`,
        sql`max(case when ${r} = floor(${q} * (${n} - 1)) + 2 then ${value} end) as ${sql.id(hi)}`,
      );
      finals.push(sql`${interpolated(d, i, k, lo, hi)} as ${sql.id(p.key)}`);
    });
  }
  const groupBy = sql.join([sql.ref('b'), ...groups.map((g) => sql.ref(g))]);
  const rankedFrom = rankColumns.length > 0 ? sql`select base.*, ${sql.join(rankColumns)} from base` : sql`select * from base`;
  return sql<StatsRow>`
    with base as ${base},
    ranked as (${rankedFrom}),
    agg as (select ${groupBy}, ${sql.join(aggregates)} from ranked group by ${groupBy})
    select ${groupBy}, ${sql.join(finals)} from agg
    order by ${groupBy}`;
}

/** ClickHouse's interpolation between the k-th and (k+1)-th values. */
function interpolated(d: Dialect, i: string, k: string, lo: string, hi: string): RawBuilder<number | null> {
  const [I, K, LO, HI] = [i, k, lo, hi].map((c) => sql.ref(c));
  const loDouble = castDouble(d, sql.ref(lo));
  return sql<number | null>`(case
    when ${LO} is null then null
    when ${HI} is null then ${loDouble}
    else ${LO} * ((${K} + 1) - ${I}) + ${HI} * (${I} - ${K}) end)`;
}
