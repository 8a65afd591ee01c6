// Feedback fields of the calls query language and sort keys: `feedback.[<feedback_type>].payload.<path>`
// (or `.payload` alone) and `feedback.[<feedback_type>].<column>`. Each reads one feedback row of the
// call: of the project's live rows of that type on the call's ref, the newest (created_at, then id,
// descending), so two annotators' rows give one answer however often it is asked. Weave's ClickHouse
// takes an arbitrary one there. The row is found by a correlated subquery per value; the lookup is a
// range of feedback_call_type_idx (project_id, weave_ref, feedback_type, created_at, id), newest first.
import { sql, type Expression } from 'kysely';
import { jsonPathAsNumber, jsonPathAsText, jsonPathType, type Db } from '../db/index.ts';
import { TEXT_COLUMNS } from '../feedback/feedback-query.ts';
import { queryFail, type Kind, type Value } from '../query/weave-query.ts';

/** Weave's feedback field name → column of the feedback table; weave_ref and feedback_type name the row itself. */
const COLUMNS = Object.fromEntries(Object.entries(TEXT_COLUMNS).filter(([k]) => k !== 'weave_ref' && k !== 'feedback_type'));

// The type is everything between `feedback.[` and the first `].` (it may hold dots, not `]`).
const FEEDBACK_FIELD = /^feedback\.\[([^\]]+)\]\.(.+)$/s;

export const isFeedbackField = (name: string): boolean => name.startsWith('feedback.');

export interface FeedbackField {
  value: Value;
  /**
   * Its sort keys as JSON paths sort (calls-stream-query.ts): a flag putting calls without the
   * value (no such feedback, a missing path, JSON null) last in either direction, then the value
   * as a number, then as text, in the requested direction.
   */
  sortKeys: { missing: Expression<unknown>; values: Expression<unknown>[] };
}

const unknownField = (name: string): never => queryFail(`unknown field ${JSON.stringify(name)}`);

/** The field `name` (which isFeedbackField), or `refuse(name)` (a 400 naming it). */
export function feedbackField(db: Db, name: string, refuse: (name: string) => never = unknownField): FeedbackField {
  const match = FEEDBACK_FIELD.exec(name);
  const unknown = (): never => refuse(name);
  if (!match) return unknown();
  const [, type = '', rest = ''] = match;
  const newest = (expr: Expression<unknown>) => newestOfType(db, type, expr);

  if (rest === 'created_at') {
    const at = newest(sql.ref('f.created_at'));
    const value: Value = { time: true, as: (k) => (k === 'time' ? at : k === 'exists' ? sql`(${at} is not null)` : undefined) };
    return { value, sortKeys: { missing: sql`(${at} is null)`, values: [at] } };
  }
  const column = COLUMNS[rest];
  if (column !== undefined) {
    const text = newest(sql.ref(`f.${column}`));
    const value: Value = { as: (k) => (k === 'text' ? text : k === 'exists' ? sql`(${text} is not null)` : undefined) };
    return { value, sortKeys: { missing: sql`(${text} is null)`, values: [text] } };
  }
  if (rest !== 'payload' && !rest.startsWith('payload.')) return unknown();
  const path = rest === 'payload' ? [] : rest.slice('payload.'.length).split('.');
  if (path.some((p) => p === '')) return unknown();

  const payload = 'f.payload';
  const jsonType = newest(jsonPathType(db, payload, path));
  // As text, any present value in its JSON text (Weave reads feedback values with JSON_VALUE, so a
  // scorer's number output equals its text): the "has this feedback" idiom `$not $eq ""` holds.
  const byKind: Partial<Record<Kind, Expression<unknown>>> = {
    text: newest(jsonPathAsText(db, payload, path)),
    number: newest(jsonPathAsNumber(db, payload, path)),
    bool: newest(
      sql`(case ${jsonPathType(db, payload, path)} when 'boolean' then (${jsonPathAsText(db, payload, path)} in ('true', '1')) end)`,
    ),
    exists: sql`(${jsonType} is not null)`,
  };
  const value: Value = { as: (k) => byKind[k] };
  const missing = sql`(${jsonType} is null or ${jsonType} = 'null')`;
  return { value, sortKeys: { missing, values: [byKind.number!, byKind.text!] } };
}

/** `expr` over the newest live feedback row of `type` on the outer call (alias `f`); NULL without one. */
function newestOfType(db: Db, type: string, expr: Expression<unknown>): Expression<unknown> {
  const q = db.kysely
    .selectFrom('feedback as f')
    .select(sql`${expr}`.as('v'))
    // The outer call's project and ref (callRef in SQL): the constant parts inline, so the
    // comparison is an index key both planners bind per call.
    .where(sql.ref('f.project_id'), '=', sql.ref('calls.project_id'))
    .where(
      'f.weave_ref',
      '=',
      sql<string>`(${sql.lit('weave:///')} || ${sql.ref('calls.project_id')} || ${sql.lit('/call/')} || ${sql.ref('calls.id')})`,
    )
    .where('f.feedback_type', '=', type)
    .where('f.deleted_at', 'is', null)
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(1);
  return sql`(${q})`;
}
