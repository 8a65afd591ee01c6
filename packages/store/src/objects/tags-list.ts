// GET /tags: every tag of the project, once, sorted (Weave's tags_list). Tags live on live
// versions only (obj/delete removes them), so no join with `objects` is needed; the
// (project_id, tag) index answers it in order.
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';

export async function tagsList(db: Db, req: { project_id: string }, _ctx: RequestContext): Promise<T.TagsListRes> {
  const rows = await db.kysely
    .selectFrom('object_tags')
    .select('tag')
    .distinct()
    .where('project_id', '=', req.project_id)
    .orderBy('tag')
    .execute();
  return { tags: rows.map((r) => r.tag) };
}
