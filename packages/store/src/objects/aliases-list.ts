// GET /aliases: every alias set in the project, once, sorted (Weave's aliases_list). The virtual
// `latest` is not stored, so not listed; the (project_id, alias) index answers it in order.
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';

export async function aliasesList(db: Db, req: { project_id: string }, _ctx: RequestContext): Promise<T.AliasesListRes> {
  const rows = await db.kysely
    .selectFrom('object_aliases')
    .select('alias')
    .distinct()
    .where('project_id', '=', req.project_id)
    .orderBy('alias')
    .execute();
  return { aliases: rows.map((r) => r.alias) };
}
