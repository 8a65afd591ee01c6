// call/end: records (or replaces) the end half of a call; see call-start.ts for how the halves
// merge. An end that arrives first creates a row that stays invisible until its start arrives.
//
// `output` is always stored as JSON, null when the end carried none (Weave does the same), so a
// null output is kept apart from "not ended yet" by ended_at.
import { invalidField } from '@weft/core';
import type * as T from '@weft/types';
import type { Kysely } from 'kysely';
import { jsonOf, type Database, type Db } from '../db/index.ts';
import { END_COLUMNS, upsertCallRows, type CallRow } from './call-rows.ts';
import { storedDatetime } from './datetimes.ts';
import { either } from './weave-names.ts';

/**
 * Newer Weave SDKs repeat the call's trace_id and started_at on its end. Once the start is stored
 * they must agree with it: an end that names another trace or start is a client bug, refused
 * before anything is written rather than merged into the wrong call. (An end that arrives first
 * has nothing to check against; its start then sets both.)
 */
async function checkRepeatedStart(kysely: Kysely<Database>, end: T.EndedCall): Promise<void> {
  if (end.trace_id == null && end.started_at == null) return;
  const stored = await kysely
    .selectFrom('calls')
    .select(['trace_id', 'started_at'])
    .where('project_id', '=', end.project_id)
    .where('id', '=', end.id)
    .executeTakeFirst();
  if (stored) checkAgainstStart(end, stored);
}

/** The same rule against a start about to be written with this end (call/upsert_batch). */
export function checkAgainstStart(end: T.EndedCall, start: { trace_id: string | null; started_at: string | null }): void {
  if (start.started_at === null) return;
  if (end.trace_id != null && end.trace_id !== start.trace_id)
    throw invalidField(['body', 'trace_id'], `trace_id ${JSON.stringify(end.trace_id)} is not the trace of call ${end.id}`, 'value_error');
  if (end.started_at != null && storedDatetime('started_at', end.started_at) !== start.started_at)
    throw invalidField(['body', 'started_at'], `started_at is not the start of call ${end.id}`, 'value_error');
}

export async function callEnd(kysely: Kysely<Database>, db: Db, end: T.EndedCall): Promise<void> {
  await checkRepeatedStart(kysely, end);
  await upsertCallRows(db, kysely, [endRow(end)], END_COLUMNS);
}

/** The end half of a call's row, as call/end writes it. */
export function endRow(end: T.EndedCall): CallRow {
  const ended_at = storedDatetime('ended_at', end.ended_at);
  return {
    project_id: end.project_id,
    id: end.id,
    ended_at,
    // Only for an end that arrives first (END_COLUMNS leave it): a start that never comes would
    // otherwise keep the row for ever. Its start, when it comes, stamps the call's own.
    expire_from: ended_at,
    exception: end.exception ?? null,
    output: jsonOf(end.output ?? null),
    summary: jsonOf(end.summary ?? {}),
    svc_run_step_end: either('svc_run_step_end', end.svc_run_step_end, 'wb_run_step_end', end.wb_run_step_end),
  };
}
