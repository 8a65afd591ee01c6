// calls/query_stats: how many calls calls/stream_query would answer for the same filter. With a
// limit, the count stops at limit + 1 rows (a subquery with LIMIT), so asking "more than 1,000?"
// never counts a million. The count reads the project's calls: on SQLite it runs off the main
// thread (db.readLong), so a large project never holds other requests.
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { refuseQueryThroughExpandedRefs } from './call-columns.ts';
import { callsQueryCondition } from './calls-query-fields.ts';
import { filterOf } from './calls-stream-query.ts';

export async function callsQueryStats(db: Db, req: T.CallsQueryStatsReq): Promise<T.CallsQueryStatsRes> {
  refuseQueryThroughExpandedRefs(req);
  const limit = req.limit ?? undefined;
  const condition = callsQueryCondition(db, req.query);
  const matching = db.kysely
    .selectFrom('calls')
    .select('calls.id')
    .where(filterOf(db, req.project_id, req.filter ?? {}))
    .$if(condition !== undefined, (q) => q.where(condition!))
    .$if(limit !== undefined, (q) => q.limit(limit! + 1));
  const query = db.kysely.selectFrom(matching.as('m')).select((eb) => eb.fn.countAll<number | string>().as('n'));
  const [row] = await db.readLong<{ n: number | string }>(query.compile());
  // PostgreSQL's count is a bigint, read as text.
  const n = Number(row?.n ?? 0);
  return limit === undefined ? { count: n } : { count: Math.min(n, limit), has_more: n > limit };
}
