// POST /objs/{object_id}/versions/{digest}/tags/remove: removes tags from one version (Weave's
// obj_remove_tags). Idempotent: an unknown version or tag changes nothing, as in Weave.
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';

type ObjRemoveTagsInput = T.ObjRemoveTagsReq & { object_id: string; digest: string };

export async function objRemoveTags(db: Db, req: ObjRemoveTagsInput, _ctx: RequestContext): Promise<T.Empty> {
  if (req.tags.length === 0) return {};
  await db.kysely
    .deleteFrom('object_tags')
    .where('project_id', '=', req.project_id)
    .where('object_id', '=', req.object_id)
    .where('digest', '=', req.digest)
    .where('tag', 'in', [...new Set(req.tags)])
    .execute();
  return {};
}
