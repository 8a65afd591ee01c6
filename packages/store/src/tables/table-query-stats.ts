// POST /table/query_stats: a table's row count, stored with the table when it is created (tables
// are immutable), so counting a million rows costs one primary-key lookup. An unknown digest
// counts 0, as Weave's reference recommends (Weave itself answers 500).
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';

export async function tableQueryStats(db: Db, req: T.TableQueryStatsReq): Promise<T.TableQueryStatsRes> {
  const row = await db.kysely
    .selectFrom('tables')
    .select('row_count')
    .where('project_id', '=', req.project_id)
    .where('digest', '=', req.digest)
    .executeTakeFirst();
  return { count: row?.row_count ?? 0 };
}
