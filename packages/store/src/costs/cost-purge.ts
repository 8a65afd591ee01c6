// cost/purge: removes a project's prices for good, by id only, as Weave's cost_purge (its
// validate_cost_purge_req takes `$eq`, `$in` and an `$or` of `$eq`s on id).
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { purgeIds } from '../query/purge-ids.ts';

const ONLY_BY_ID =
  'Costs can only be purged by id: {"$expr": {"$in": [{"$getField": "id"}, [{"$literal": "<id>"}, …]]}}, an $eq of id, or an $or of such';
/** Ids per statement: far below either database's limit of bound parameters. */
const CHUNK = 500;

export async function costPurge(db: Db, req: T.CostPurgeReq): Promise<T.CostPurgeRes> {
  const ids = [...new Set(purgeIds(req.query, { message: ONLY_BY_ID, allowIn: true }))];
  let deleted = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const result = await db.kysely
      .deleteFrom('llm_token_prices')
      .where('project_id', '=', req.project_id)
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return { num_deleted: deleted };
}
