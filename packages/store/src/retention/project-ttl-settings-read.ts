// project/ttl_settings/read: the project's retention in days; null when it has none (never set,
// or cleared), as Weave answers.
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';

export async function projectTtlSettingsRead(db: Db, req: T.ProjectTtlSettingsReadReq): Promise<T.ProjectTtlSettingsReadRes> {
  const row = await db.kysely
    .selectFrom('project_ttl_settings')
    .select('retention_days')
    .where('project_id', '=', req.project_id)
    .executeTakeFirst();
  return { retention_days: row?.retention_days ?? null };
}
