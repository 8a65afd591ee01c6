// POST /objs/{object_id}/aliases/remove: removes aliases of an object, whichever version they
// point at (Weave's obj_remove_aliases). Idempotent: an alias the object does not have changes
// nothing, as in Weave.
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';

type ObjRemoveAliasesInput = T.ObjRemoveAliasesReq & { object_id: string };

export async function objRemoveAliases(db: Db, req: ObjRemoveAliasesInput, _ctx: RequestContext): Promise<T.Empty> {
  if (req.aliases.length === 0) return {};
  await db.kysely
    .deleteFrom('object_aliases')
    .where('project_id', '=', req.project_id)
    .where('object_id', '=', req.object_id)
    .where('alias', 'in', [...new Set(req.aliases)])
    .execute();
  return {};
}
