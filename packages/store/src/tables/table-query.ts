// POST /table/query: rows of a table with their position (original_index), filtered, sorted and
// paged in SQL.
//
// Without filter and sort, a page is a range read of the primary key (project_id, table_digest,
// row_index): `row_index >= offset ORDER BY row_index LIMIT limit`, so its cost grows with the
// page, never with the offset or the table.
//
// Sort keys follow Weave's production (ClickHouse) order for each item:
//   1. rows where the path exists and is not JSON null first, in both directions;
//   2. the value as a float (numbers and numeric strings such as "10") in the requested direction,
//      values without one after all numbers;
//   3. the value as text (objects and arrays as minified JSON) in the requested direction;
// then the table position, ascending. NULL placement is spelled out, as the two databases differ.
import { invalidRequest } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type SelectQueryBuilder } from 'kysely';
import {
  jsonPathAsNumber,
  jsonPathAsText,
  jsonPathType,
  maxBindParameters,
  readJson,
  type Database,
  type Db,
  type StoredJson,
} from '../db/index.ts';
import { checkPaging } from '../objects/paging.ts';
import type { RequestContext } from '../store.ts';
import { parseTableSort } from './table-sort.ts';

type RowQuery = SelectQueryBuilder<
  Database & { tr: Database['table_rows']; r: Database['rows'] },
  'tr' | 'r',
  { row_index: number; row_digest: string; val: StoredJson }
>;

export async function tableQuery(db: Db, req: T.TableQueryReq, _ctx: RequestContext): Promise<T.TableQueryRes> {
  const query = tableQueryBuilder(db, req);
  if (query === null) return { rows: [] };
  const rows = await query.execute();
  return {
    rows: rows.map((r) => ({ digest: r.row_digest, val: readJson(db, r.val), original_index: r.row_index })),
  };
}

/** The SELECT for a request, or null when it asks for no rows. Exported so tests can inspect its plan. */
export function tableQueryBuilder(db: Db, req: T.TableQueryReq): RowQuery | null {
  // Validated before anything else, so a bad request fails whether or not the table exists.
  const sortKeys = parseTableSort(req.sort_by);
  const { limit, offset } = checkPaging(req.limit, req.offset);
  // An empty list, like none, is no filter (Weave tests `if filter.row_digests`).
  const only = [...new Set(req.filter?.row_digests ?? [])];
  const maxDigests = maxBindParameters(db) - 16;
  if (only.length > maxDigests) throw invalidRequest(`filter.row_digests lists ${only.length} digests; at most ${maxDigests} are supported`);
  if (limit === 0) return null;

  let q: RowQuery = db.kysely
    .selectFrom('table_rows as tr')
    .innerJoin('rows as r', (join) => join.onRef('r.project_id', '=', 'tr.project_id').onRef('r.digest', '=', 'tr.row_digest'))
    .select(['tr.row_index', 'tr.row_digest', 'r.val'])
    .where('tr.project_id', '=', req.project_id)
    .where('tr.table_digest', '=', req.digest);
  if (only.length > 0) q = q.where('tr.row_digest', 'in', only);

  if (sortKeys.length === 0 && only.length === 0) {
    // Positions are exactly 0..n-1, so skipping `offset` rows is starting at row_index `offset`.
    if (offset > 0) q = q.where('tr.row_index', '>=', offset);
    q = q.orderBy('tr.row_index');
    return limit === undefined ? q : q.limit(limit);
  }

  for (const { path, direction } of sortKeys) {
    const type = jsonPathType(db, 'r.val', path);
    q = q
      .orderBy(sql`(case when ${type} is null or ${type} = 'null' then 1 else 0 end)`)
      .orderBy(jsonPathAsNumber(db, 'r.val', path), (ob) => (direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy(jsonPathAsText(db, 'r.val', path), (ob) => (direction === 'asc' ? ob.asc() : ob.desc()).nullsLast());
  }
  q = q.orderBy('tr.row_index');
  if (limit !== undefined) q = q.limit(limit);
  // SQLite has no OFFSET without LIMIT; a limit no table reaches means none.
  if (offset > 0) q = (limit === undefined ? q.limit(Number.MAX_SAFE_INTEGER) : q).offset(offset);
  return q;
}
