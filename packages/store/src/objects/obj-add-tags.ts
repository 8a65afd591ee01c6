// PUT /objs/{object_id}/versions/{digest}/tags: adds tags to one live version (Weave's
// obj_add_tags). Under the object's lock, as obj/delete, so a tag never outlives its version.
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';
import { requireLiveVersion } from './live-version.ts';
import { withObjectLock } from './object-versions.ts';

type ObjAddTagsInput = T.ObjAddTagsReq & { object_id: string; digest: string };

export async function objAddTags(db: Db, req: ObjAddTagsInput, _ctx: RequestContext): Promise<T.Empty> {
  const tags = [...new Set(req.tags)];
  await withObjectLock(db, req.project_id, req.object_id, async (trx) => {
    await requireLiveVersion(trx, req.project_id, req.object_id, req.digest);
    if (tags.length === 0) return;
    const created_at = nowIso();
    await trx
      .insertInto('object_tags')
      .values(tags.map((tag) => ({ project_id: req.project_id, object_id: req.object_id, digest: req.digest, tag, created_at })))
      .onConflict((oc) => oc.columns(['project_id', 'object_id', 'digest', 'tag']).doNothing())
      .execute();
  });
  return {};
}
