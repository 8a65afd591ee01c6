// POST /feedback/aggregate: Weave's counts of typed scorer feedback (feedback_aggregate_query
// _builder.py) per time bucket and group, sparse. Weave reads typed columns that agent monitors
// fill (scorer_tags, scorer_ratings, span_*); Weft keeps them only at their defaults (feedback/
// create refuses anything else), so here they are those defaults: no tags, no ratings, span
// names and versions '', status 'UNSET'. Filters on them are evaluated on the defaults (a tag or
// rating filter matches nothing), and the counts come from one grouped query.
import { invalidField } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/index.ts';
import { bucketIndex, lastPathSegment, refObjectId, textStartsWith, withoutLastPathSegment } from '../db/dialect-stats.ts';

/** Time buckets a window may span, and rows an answer may hold (Weave's MAX_BUCKETS, for both). */
export const MAX_AGGREGATE_BUCKETS = 10_000;
export const MAX_AGGREGATE_ROWS = 10_000;

type Dimension = 'scorer_id' | 'span_agent_name' | 'span_agent_version' | 'span_status_code';
/** The span columns' defaults: what every feedback item in Weft holds. */
const SPAN_DEFAULTS: Record<Exclude<Dimension, 'scorer_id'>, string> = {
  span_agent_name: '',
  span_agent_version: '',
  span_status_code: 'UNSET',
};

type Value = number | string | bigint | null;

/** Any of `values` matches a ref's object id: exactly, or by prefix with a trailing `*`. */
function objectIdIn(db: Db, column: string, values: readonly string[]): RawBuilder<unknown> {
  const id = refObjectId(db.dialect, sql.ref(column));
  const ors = values.map((v) => (v.endsWith('*') ? textStartsWith(db.dialect, id, v.replace(/\*+$/, '')) : sql`${id} = ${v}`));
  return sql`(${sql.join(ors, sql` or `)})`;
}

function conditions(db: Db, req: T.FeedbackAggregateReq, afterIso: string, beforeIso: string): RawBuilder<unknown>[] {
  const parts: RawBuilder<unknown>[] = [
    sql`f.project_id = ${req.project_id}`,
    sql`f.deleted_at is null`,
    sql`f.created_at >= ${afterIso}`,
    sql`f.created_at < ${beforeIso}`,
  ];
  const types = req.feedback_types ?? [];
  if (types.length > 0) {
    const ors = types.map((t) => textStartsWith(db.dialect, sql.ref('f.feedback_type'), t.replace(/\*+$/, '')));
    parts.push(sql`(${sql.join(ors, sql` or `)})`);
  }
  if (req.monitor_ids?.length) parts.push(objectIdIn(db, 'f.trigger_ref', req.monitor_ids));
  if (req.scorer_ids?.length) parts.push(objectIdIn(db, 'f.runnable_ref', req.scorer_ids));
  const spanTypes = req.span_types ?? [];
  if (spanTypes.length > 0) {
    const segment = lastPathSegment(withoutLastPathSegment(sql.ref('f.weave_ref')));
    parts.push(
      sql`(${sql.join(
        spanTypes.map((t) => sql`${segment} = ${t}`),
        sql` or `,
      )})`,
    );
  }
  // The defaults: span_agent_name '', no tags, no `_rating_`.
  const never =
    (req.span_agent_names?.length && !req.span_agent_names.includes(SPAN_DEFAULTS.span_agent_name)) ||
    (req.tags?.length ?? 0) > 0 ||
    req.rating_min != null ||
    req.rating_max != null;
  if (never) parts.push(sql`1 = 0`);
  return parts;
}

export async function feedbackAggregate(db: Db, req: T.FeedbackAggregateReq): Promise<T.FeedbackAggregateRes> {
  const afterIso = new Date(req.after_ms).toISOString();
  const beforeIso = new Date(req.before_ms).toISOString();
  const seconds = req.time_bucket_seconds ?? null;
  const groupBy = [...new Set(req.group_by ?? [])] as Dimension[];
  const widthMs = seconds === null ? 0 : seconds * 1000;
  const originMs = seconds === null ? 0 : Math.floor(req.after_ms / widthMs) * widthMs;
  if (seconds !== null && (req.before_ms - originMs) / widthMs > MAX_AGGREGATE_BUCKETS)
    throw invalidField(['body', 'time_bucket_seconds'], `The window spans more than ${MAX_AGGREGATE_BUCKETS} buckets of ${seconds} s`);

  const byScorer = groupBy.includes('scorer_id');
  const keys: RawBuilder<unknown>[] = [];
  if (seconds !== null) keys.push(sql`${bucketIndex(db.dialect, sql.ref('f.created_at'), originMs, widthMs)} as b`);
  if (byScorer) keys.push(sql`${refObjectId(db.dialect, sql.ref('f.runnable_ref'))} as sid`);
  const grouped = keys.length > 0;
  const query = sql<Record<string, Value>>`select ${sql.join([...keys, sql`count(*) as n`])}
    from feedback as f where ${sql.join(conditions(db, req, afterIso, beforeIso), sql` and `)}
    ${grouped ? sql`group by ${sql.join([...(seconds !== null ? [sql`b`] : []), ...(byScorer ? [sql`sid`] : [])])}` : sql``}
    limit ${MAX_AGGREGATE_ROWS + 1}`;
  const rows = await db.readLong<Record<string, Value>>(query.compile(db.kysely));
  if (rows.length > MAX_AGGREGATE_ROWS)
    throw invalidField(
      ['body', seconds !== null ? 'time_bucket_seconds' : 'group_by'],
      `More than ${MAX_AGGREGATE_ROWS} rows: ask for coarser buckets, a shorter window or fewer groups`,
    );

  const buckets = rows.map((r) => {
    const start = seconds === null ? null : originMs + Number(r.b) * widthMs;
    const group: Record<string, string> = {};
    for (const d of groupBy) group[d] = d === 'scorer_id' ? String(r.sid ?? '') : SPAN_DEFAULTS[d];
    return {
      time_bucket_start_ms: start,
      group,
      total_count: Number(r.n),
      scored_count: 0,
      tag_counts: {},
      rating_counts: {},
      rating_sums: {},
    };
  });
  // As Weave's ORDER BY: the bucket for a time series, else the groups (code-unit order here).
  const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  buckets.sort(
    (a, b) =>
      (a.time_bucket_start_ms ?? 0) - (b.time_bucket_start_ms ?? 0) || byCodeUnits(a.group.scorer_id ?? '', b.group.scorer_id ?? ''),
  );
  return { time_bucket_seconds: seconds, after_ms: req.after_ms, before_ms: req.before_ms, buckets };
}
