// call/end: records (or replaces) the end half of a call; see call-start.ts for how the halves
// merge. An end that arrives first creates a row that stays invisible until its start arrives.
//
// `output` is always stored as JSON, null when the end carried none (Weave does the same), so a
// null output is kept apart from "not ended yet" by ended_at.
import type * as T from '@weft/types';
import type { Kysely } from 'kysely';
import { jsonParam, type Database, type Db } from '../db/index.ts';
import { expireAtFor } from '../retention/expire-at.ts';
import { storedDatetime } from './datetimes.ts';
import { either } from './weave-names.ts';

export async function callEnd(kysely: Kysely<Database>, db: Pick<Db, 'dialect'>, end: T.EndedCall): Promise<void> {
  const ended_at = storedDatetime('ended_at', end.ended_at);
  const row = {
    project_id: end.project_id,
    id: end.id,
    ended_at,
    // Only for an end that arrives first (the update below leaves it): a start that never comes
    // would otherwise keep the row for ever. Its start, when it comes, stamps the call's own.
    expire_at: expireAtFor(db, end.project_id, ended_at),
    exception: end.exception ?? null,
    output: jsonParam(db, end.output ?? null),
    summary: jsonParam(db, end.summary ?? {}),
    svc_run_step_end: either('svc_run_step_end', end.svc_run_step_end, 'wb_run_step_end', end.wb_run_step_end),
  };

  await kysely
    .insertInto('calls')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['project_id', 'id']).doUpdateSet((eb) => ({
        ended_at: eb.ref('excluded.ended_at'),
        exception: eb.ref('excluded.exception'),
        output: eb.ref('excluded.output'),
        summary: eb.ref('excluded.summary'),
        svc_run_step_end: eb.ref('excluded.svc_run_step_end'),
      })),
    )
    .execute();
}
