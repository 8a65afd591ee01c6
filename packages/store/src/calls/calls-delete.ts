// calls/delete: the named calls and all their descendants are marked deleted, as Weave does (a
// soft delete: deleted_at, which every read of calls filters on). Descendants are found by one
// recursive query over the (project_id, parent_id) index, then marked in batches within one
// transaction, so the event loop gets a turn between statements and the whole delete commits or
// nothing does. A call already deleted stays as it was (its first deletion time).
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { maxBindParameters, nowIso, type Db } from '../db/index.ts';

/** Ids a statement marks at once: well under both databases' bind parameter limits. */
const BATCH = 500;

export async function callsDelete(db: Db, req: T.CallsDeleteReq): Promise<T.CallsDeleteRes> {
  const roots = [...new Set(req.call_ids)];
  return db.kysely.transaction().execute(async (tx) => {
    // Descendants through live and deleted calls alike: a child of a call deleted earlier is
    // still a descendant of the root being deleted now.
    const { rows } = await sql<{ id: string }>`
      with recursive tree(id) as (
        select id from calls where project_id = ${req.project_id} and id in (${sql.join(roots)})
        union
        select c.id from calls c join tree t on c.parent_id = t.id where c.project_id = ${req.project_id}
      )
      select id from tree`.execute(tx);
    const deletedAt = nowIso();
    let deleted = 0;
    const batch = Math.min(BATCH, maxBindParameters(db) - 4);
    for (let i = 0; i < rows.length; i += batch) {
      const ids = rows.slice(i, i + batch).map((r) => r.id);
      const result = await tx
        .updateTable('calls')
        .set({ deleted_at: deletedAt })
        .where('project_id', '=', req.project_id)
        .where('id', 'in', ids)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      deleted += Number(result.numUpdatedRows);
    }
    return { num_deleted: deleted };
  });
}
