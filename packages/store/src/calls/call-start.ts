// call/start: records (or replaces) the start half of a call. Start and end are two halves of one
// row, written by separate upserts that each touch only their own columns, so they merge in either
// order and concurrently (PostgreSQL's ON CONFLICT DO UPDATE is atomic against a concurrent insert
// of the same key; SQLite has one writer).
//
// A second start for the same id replaces every start column with the new start's values (a
// missing optional field becomes null): the latest start wins, its end is kept.
import { invalidRequest, uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import type { Kysely } from 'kysely';
import { jsonOf, type Database, type Db } from '../db/index.ts';
import { START_COLUMNS, upsertCallRows, type CallRow } from './call-rows.ts';
import { storedDatetime } from './datetimes.ts';
import { either } from './weave-names.ts';

/** Weave's limit for an op name that is not a ref (refs can be longer: they carry a digest). */
const MAX_PLAIN_OP_NAME = 128;
const REF = /^[a-z][a-z0-9+.-]*:\/\/\//i;

export async function callStart(kysely: Kysely<Database>, db: Db, start: T.StartedCall, user: string): Promise<T.CallStartRes> {
  const row = startRow(start, user);
  await upsertCallRows(db, kysely, [row], START_COLUMNS);
  return { id: row.id, trace_id: row.trace_id };
}

/** The start half of a call's row, as call/start writes it. */
export function startRow(start: T.StartedCall, user: string): CallRow & { trace_id: string; started_at: string } {
  if (!REF.test(start.op_name) && start.op_name.length > MAX_PLAIN_OP_NAME) {
    throw invalidRequest(`op_name is longer than ${MAX_PLAIN_OP_NAME} characters and is not a ref`);
  }
  const started_at = storedDatetime('started_at', start.started_at);
  return {
    project_id: start.project_id,
    id: start.id ?? uuidv7(),
    trace_id: start.trace_id ?? uuidv7(),
    parent_id: start.parent_id ?? null,
    op_name: start.op_name,
    display_name: start.display_name ?? null,
    thread_id: start.thread_id ?? null,
    turn_id: start.turn_id ?? null,
    started_at,
    // The project's retention in force now decides when the call expires (a replaced start too).
    expire_from: started_at,
    attributes: jsonOf(start.attributes ?? {}),
    inputs: jsonOf(start.inputs ?? {}),
    // The authenticated user, whatever the client sent.
    svc_user_id: user,
    svc_run_id: either('svc_run_id', start.svc_run_id, 'wb_run_id', start.wb_run_id),
    svc_run_step: either('svc_run_step', start.svc_run_step, 'wb_run_step', start.wb_run_step),
  };
}
