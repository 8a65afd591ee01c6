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
import { jsonParam, type Database, type Db } from '../db/index.ts';
import { expireAtFor } from '../retention/expire-at.ts';
import { storedDatetime } from './datetimes.ts';
import { either } from './weave-names.ts';

/** Weave's limit for an op name that is not a ref (refs can be longer: they carry a digest). */
const MAX_PLAIN_OP_NAME = 128;
const REF = /^[a-z][a-z0-9+.-]*:\/\/\//i;

export async function callStart(
  kysely: Kysely<Database>,
  db: Pick<Db, 'dialect'>,
  start: T.StartedCall,
  user: string,
): Promise<T.CallStartRes> {
  if (!REF.test(start.op_name) && start.op_name.length > MAX_PLAIN_OP_NAME) {
    throw invalidRequest(`op_name is longer than ${MAX_PLAIN_OP_NAME} characters and is not a ref`);
  }
  const id = start.id ?? uuidv7();
  const trace_id = start.trace_id ?? uuidv7();
  const started_at = storedDatetime('started_at', start.started_at);
  const row = {
    project_id: start.project_id,
    id,
    trace_id,
    parent_id: start.parent_id ?? null,
    op_name: start.op_name,
    display_name: start.display_name ?? null,
    thread_id: start.thread_id ?? null,
    turn_id: start.turn_id ?? null,
    started_at,
    // The project's retention in force now decides when the call expires (a replaced start too).
    expire_at: expireAtFor(db, start.project_id, started_at),
    attributes: jsonParam(db, start.attributes ?? {}),
    inputs: jsonParam(db, start.inputs ?? {}),
    // The authenticated user, whatever the client sent.
    svc_user_id: user,
    svc_run_id: either('svc_run_id', start.svc_run_id, 'wb_run_id', start.wb_run_id),
    svc_run_step: either('svc_run_step', start.svc_run_step, 'wb_run_step', start.wb_run_step),
  };

  await kysely
    .insertInto('calls')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['project_id', 'id']).doUpdateSet((eb) => ({
        trace_id: eb.ref('excluded.trace_id'),
        parent_id: eb.ref('excluded.parent_id'),
        op_name: eb.ref('excluded.op_name'),
        display_name: eb.ref('excluded.display_name'),
        thread_id: eb.ref('excluded.thread_id'),
        turn_id: eb.ref('excluded.turn_id'),
        started_at: eb.ref('excluded.started_at'),
        expire_at: eb.ref('excluded.expire_at'),
        attributes: eb.ref('excluded.attributes'),
        inputs: eb.ref('excluded.inputs'),
        svc_user_id: eb.ref('excluded.svc_user_id'),
        svc_run_id: eb.ref('excluded.svc_run_id'),
        svc_run_step: eb.ref('excluded.svc_run_step'),
      })),
    )
    .execute();
  return { id, trace_id };
}
