// The fields of Weave's query language on calls (calls/stream_query, calls/query_stats): the
// columns, `started_at`/`ended_at` as times, the derived `summary.weave.status` and
// `summary.weave.latency_ms` (as Weave's calls query builder computes them in SQL), dot paths into
// inputs, output, attributes and summary (and `output` itself, a string output), and the call's
// feedback (call-feedback-fields.ts). The language itself: query/weave-query.ts.
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { jsonPathAsNumber, type Database, type Db } from '../db/index.ts';
import { isoDiffMs } from '../db/dialect-durations.ts';
import { feedbackField, isFeedbackField } from './call-feedback-fields.ts';
import { jsonPathField, queryFail, textColumn, timeColumn, weaveQueryCondition, type Value } from '../query/weave-query.ts';

const TEXT_COLUMNS: Record<string, string> = {
  id: 'id',
  trace_id: 'trace_id',
  parent_id: 'parent_id',
  op_name: 'op_name',
  display_name: 'display_name',
  thread_id: 'thread_id',
  turn_id: 'turn_id',
  exception: 'exception',
  wb_user_id: 'svc_user_id',
  svc_user_id: 'svc_user_id',
  wb_run_id: 'svc_run_id',
  svc_run_id: 'svc_run_id',
};
const JSON_ROOTS = new Set(['inputs', 'output', 'attributes', 'summary']);

/** The condition of `query` on calls, or undefined without one; refused (400) before any answer. */
export function callsQueryCondition(
  db: Db,
  query: unknown,
): ((eb: ExpressionBuilder<Database, 'calls'>) => Expression<SqlBool>) | undefined {
  return weaveQueryCondition(
    db,
    query,
    (name) => callField(db, name),
    (condition) => void db.kysely.selectFrom('calls').select('id').where(condition).compile(),
  );
}

/** As derive-summary.ts's statusOf, in SQL. */
export function statusExpr(db: Db): RawBuilder<string> {
  const errors = jsonPathAsNumber(db, 'calls.summary', ['status_counts', 'error']);
  return sql<string>`(case when calls.exception is not null and calls.exception <> '' then 'error'
      when calls.ended_at is null then 'running' when coalesce(${errors}, 0) > 0 then 'descendant_error' else 'success' end)`;
}

/** Whole milliseconds from start to end, as derive-summary.ts's latency_ms; NULL while running. */
export const latencyExpr = (db: Db): RawBuilder<number | null> =>
  isoDiffMs(db.dialect, sql.ref('calls.ended_at'), sql.ref('calls.started_at'));

function callField(db: Db, name: string): Value {
  if (name === 'started_at' || name === 'ended_at') return timeColumn(`calls.${name}`);
  if (isFeedbackField(name)) return feedbackField(db, name).value;
  const column = TEXT_COLUMNS[name];
  if (column) return textColumn(`calls.${column}`);
  if (name === 'summary.weave.status') {
    const status = statusExpr(db);
    return { as: (k) => (k === 'text' ? status : undefined) };
  }
  if (name === 'summary.weave.latency_ms') {
    const latency = latencyExpr(db);
    return { as: (k) => (k === 'number' ? latency : k === 'exists' ? sql`(${latency} is not null)` : undefined) };
  }
  const [root = '', ...path] = name.split('.');
  // `output` alone: a call's output is often one string (Weave reads the root the same way).
  const whole = name === 'output';
  if (!JSON_ROOTS.has(root) || (path.length === 0 && !whole) || path.some((p) => p === ''))
    queryFail(`unknown field ${JSON.stringify(name)}`);
  // Weft's two usage fields are sort keys only (the cost needs the catalogue's prices, which no
  // condition here is given): refused by name rather than read as a missing summary path.
  if (name === 'summary.weave.total_tokens' || name === 'summary.weave.total_cost')
    queryFail(`${name} can be sorted on (sort_by) but not queried; only summary.weave.status and summary.weave.latency_ms can be queried`);
  if (root === 'summary' && path[0] === 'weave')
    queryFail(`${name} is derived at read time; only summary.weave.status and summary.weave.latency_ms can be queried`);
  return jsonPathField(db, `calls.${root}`, path);
}
