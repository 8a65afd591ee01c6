// project/ttl_settings/update: sets or clears the project's retention. As in Weave, it decides the
// expiry of calls written from now on (expire-at.ts stamps each call's expire_at when its start
// is written); calls already stored keep theirs, so a change never rewrites a project's calls.
// The row stays when cleared (retention null), with who changed it last: Weave's audit trail.
import { invalidRequest } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';

/** 100 years: every expiry of a storable start stays a storable datetime for a long while. */
export const MAX_RETENTION_DAYS = 36_500;

export async function projectTtlSettingsUpdate(
  db: Db,
  req: T.ProjectTtlSettingsUpdateReq,
  user: string,
): Promise<T.ProjectTtlSettingsUpdateRes> {
  // Weave's default: a missing retention_days is None, which clears the retention.
  const days = req.retention_days ?? null;
  // The HTTP layer refuses these with 422 already; this is the store's own rule.
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS)) {
    throw invalidRequest(`retention_days must be null (no retention) or an integer from 1 to ${MAX_RETENTION_DAYS}, got ${days}`);
  }
  const row = { project_id: req.project_id, retention_days: days, updated_at: nowIso(), updated_by: user };
  await db.kysely
    .insertInto('project_ttl_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('project_id').doUpdateSet((eb) => ({
        retention_days: eb.ref('excluded.retention_days'),
        updated_at: eb.ref('excluded.updated_at'),
        updated_by: eb.ref('excluded.updated_by'),
      })),
    )
    .execute();
  return { retention_days: days };
}
