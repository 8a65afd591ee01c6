// POST /feedback/stats: values at dot paths of a project's feedback payloads, aggregated per time
// bucket and over the whole window by the database, answered as Weave's feedback_stats: every
// bucket of the window (empty ones too) with `timestamp`, `<agg>_<slug>` keys and `count`, and
// `window_stats` slug → aggregation → value. One grouped scan per answer part; JavaScript only
// lays the grouped rows onto the (bounded) list of buckets.
import { invalidField } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/index.ts';
import { bucketIndex, jsonKeysBoolean, jsonKeysNumber, jsonKeysString, textStartsWith } from '../db/dialect-stats.ts';
import {
  resolveGranularity,
  resolveMetrics,
  resolveTimezone,
  resolveWindow,
  type Aggregation,
  type FeedbackWindow,
  type ResolvedMetric,
} from './feedback-stats-request.ts';

/** Values the buckets may hold (buckets × aggregations): bounds the answer and the loop that builds it. */
export const MAX_BUCKET_VALUES = 100_000;

const YEAR_ZERO_MS = Date.parse('0000-01-01T00:00:00.000Z');

type Value = number | string | bigint | null;
const num = (v: Value | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/** The live feedback of the project in the window that the filters keep (a WHERE condition). */
export function feedbackWindowCondition(db: Db, projectId: string, w: FeedbackWindow): RawBuilder<unknown> {
  const parts = [
    sql`f.project_id = ${projectId}`,
    sql`f.deleted_at is null`,
    sql`f.created_at >= ${w.start}`,
    sql`f.created_at < ${w.end}`,
  ];
  if (w.feedbackType !== null) parts.push(sql`f.feedback_type = ${w.feedbackType}`);
  if (w.triggerRef !== null) {
    // Weave: a trailing `:*` means every version, by prefix (what precedes `:*`).
    parts.push(
      w.triggerRef.endsWith(':*')
        ? sql`(f.trigger_ref is not null and ${textStartsWith(db.dialect, sql.ref('f.trigger_ref'), w.triggerRef.slice(0, -2))})`
        : sql`f.trigger_ref = ${w.triggerRef}`,
    );
  }
  return sql.join(parts, sql` and `);
}

function extraction(db: Db, m: ResolvedMetric): RawBuilder<unknown> {
  const payload = sql.ref('f.payload');
  if (m.valueType === 'boolean') return jsonKeysBoolean(db.dialect, payload, m.keys);
  if (m.valueType === 'categorical') return jsonKeysString(db.dialect, payload, m.keys);
  return jsonKeysNumber(db.dialect, payload, m.keys);
}

function aggregate(agg: Aggregation, column: string): RawBuilder<unknown> {
  const c = sql.ref(column);
  switch (agg) {
    case 'sum':
      return sql`sum(${c})`;
    case 'avg':
      return sql`avg(${c})`;
    case 'min':
      return sql`min(${c})`;
    case 'max':
      return sql`max(${c})`;
    case 'count':
      return sql`count(${c})`;
    case 'count_true':
      return sql`count(case when ${c} = 1 then 1 end)`;
    case 'count_false':
      return sql`count(case when ${c} = 0 then 1 end)`;
  }
}

interface Column {
  /** The SQL alias of the aggregate, and the column (`f.m<i>`) it aggregates. */
  alias: string;
  metricColumn: string;
  /** The answer's key, `<agg>_<slug>`. */
  key: string;
  slug: string;
  agg: Aggregation;
}

export async function feedbackStats(db: Db, req: T.FeedbackStatsReq): Promise<T.FeedbackStatsRes> {
  const window = resolveWindow(req);
  const timezone = resolveTimezone(req);
  const metrics = resolveMetrics(req);
  // Weave answers no metrics with no buckets, an hour's granularity and no window_stats.
  if (metrics.length === 0) return { start: window.start, end: window.end, granularity: 3600, timezone, buckets: [], window_stats: null };

  const granularity = resolveGranularity(req, window);
  const widthMs = granularity * 1000;
  const startMs = Date.parse(window.start);
  const endMs = Date.parse(window.end);
  // Buckets start at multiples of the granularity since the epoch (ClickHouse's toStartOfInterval).
  const originMs = Math.floor(startMs / widthMs) * widthMs;
  // A first bucket before year 0000 has no stored (fixed-width) datetime to answer as its timestamp.
  if (originMs < YEAR_ZERO_MS)
    throw invalidField(
      ['body', 'start'],
      'The first bucket would start before the year 0000: choose a later start or a smaller granularity',
    );
  const bucketCount = endMs > originMs ? Math.ceil((endMs - originMs) / widthMs) : 0;

  const columns: Column[] = metrics.flatMap((m, i) =>
    m.aggregations.map((agg, j) => ({ alias: `a${i}_${j}`, key: `${agg}_${m.slug}`, slug: m.slug, agg, metricColumn: `f.m${i}` })),
  );
  if (bucketCount * columns.length > MAX_BUCKET_VALUES)
    throw invalidField(
      ['body', req.granularity != null ? 'granularity' : 'metrics'],
      `The answer would hold ${bucketCount * columns.length} bucket values, more than ${MAX_BUCKET_VALUES}: ask for a coarser granularity, a shorter window or fewer aggregations`,
    );

  const inner = (withBucket: boolean) =>
    sql`(select ${sql.join([
      ...(withBucket ? [sql`${bucketIndex(db.dialect, sql.ref('f.created_at'), originMs, widthMs)} as b`] : []),
      ...metrics.map((m, i) => sql`${extraction(db, m)} as ${sql.ref(`m${i}`)}`),
    ])} from feedback as f where ${feedbackWindowCondition(db, req.project_id, window)}) as f`;
  const aggregates = columns.map((c) => sql`${aggregate(c.agg, c.metricColumn)} as ${sql.ref(c.alias)}`);

  const grouped = sql<Record<string, Value>>`select f.b as b, count(*) as n, ${sql.join(aggregates)} from ${inner(true)} group by f.b`;
  const whole = sql<Record<string, Value>>`select ${sql.join(aggregates)} from ${inner(false)}`;
  const bucketRows = await db.readLong<Record<string, Value>>(grouped.compile(db.kysely));
  const [windowRow] = await db.readLong<Record<string, Value>>(whole.compile(db.kysely));

  const byIndex = new Map<number, Record<string, Value>>();
  for (const row of bucketRows) byIndex.set(Number(row.b), row);
  const buckets: T.FeedbackStatsBucket[] = [];
  for (let i = 0; i < bucketCount; i++) {
    const row = byIndex.get(i);
    const bucket: Record<string, unknown> = { timestamp: new Date(originMs + i * widthMs).toISOString() };
    // As Weave's outer select: sums, averages and counts of an empty bucket are 0, min and max null.
    for (const c of columns) bucket[c.key] = num(row?.[c.alias]) ?? (c.agg === 'min' || c.agg === 'max' ? null : 0);
    bucket.count = num(row?.n) ?? 0;
    buckets.push(bucket as T.FeedbackStatsBucket);
  }

  const window_stats: Record<string, Record<string, number | null>> = {};
  for (const c of columns) (window_stats[c.slug] ??= {})[c.agg] = num(windowRow?.[c.alias]);
  return { start: window.start, end: window.end, granularity, timezone, buckets, window_stats };
}
