// POST /table/query_stats_batch: the row counts of several tables in one statement (one
// primary-key lookup each), in the order asked; digests that name no table are left out, as Weave
// does. Duplicated digests are answered once.
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';

export async function tableQueryStatsBatch(db: Db, req: T.TableQueryStatsBatchReq): Promise<T.TableQueryStatsBatchRes> {
  const digests = [...new Set(req.digests ?? [])];
  if (digests.length === 0) return { tables: [] };
  const rows = await db.kysely
    .selectFrom('tables')
    .select(['digest', 'row_count'])
    .where('project_id', '=', req.project_id)
    .where('digest', 'in', digests)
    .execute();
  const counts = new Map(rows.map((r) => [r.digest, r.row_count]));
  return { tables: digests.flatMap((digest) => (counts.has(digest) ? [{ digest, count: counts.get(digest)! }] : [])) };
}
