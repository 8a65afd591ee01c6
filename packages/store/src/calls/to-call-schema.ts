// A stored `calls` row as the wire's CallSchema: optional fields that are null are omitted (the
// seed contract never sends null for them), attributes and inputs default to {}, and `output` is
// present exactly when the call has ended (it may be JSON null then).
import type * as T from '@weft/types';
import { readJson, type Db, type Row } from '../db/index.ts';

/** The columns a start always sets, non-null once the call has started. */
type StartedColumns = { started_at: string; op_name: string; trace_id: string };
export type StartedRow = Row<'calls'> & StartedColumns;

export function isStarted<R extends Row<'calls'>>(row: R): row is R & StartedColumns {
  return row.started_at !== null && row.op_name !== null && row.trace_id !== null;
}

export function toCallSchema(db: Pick<Db, 'dialect'>, row: StartedRow, summary: Record<string, unknown>): T.CallSchema {
  const call: Record<string, unknown> = {
    id: row.id,
    project_id: row.project_id,
    op_name: row.op_name,
  };
  const optional = (key: string, value: unknown) => {
    if (value !== null && value !== undefined) call[key] = value;
  };
  optional('display_name', row.display_name);
  call.trace_id = row.trace_id;
  optional('parent_id', row.parent_id);
  optional('thread_id', row.thread_id);
  optional('turn_id', row.turn_id);
  call.started_at = row.started_at;
  optional('ended_at', row.ended_at);
  call.attributes = readJson(db, row.attributes) ?? {};
  call.inputs = readJson(db, row.inputs) ?? {};
  if (row.ended_at !== null) call.output = readJson(db, row.output);
  optional('exception', row.exception);
  call.summary = summary;
  optional('svc_user_id', row.svc_user_id);
  optional('svc_username', row.svc_username);
  optional('svc_run_id', row.svc_run_id);
  optional('svc_run_step', row.svc_run_step);
  optional('svc_run_step_end', row.svc_run_step_end);
  optional('deleted_at', row.deleted_at);
  optional('expire_at', row.expire_at);
  return call as T.CallSchema;
}
