// POST /table/query: rows of a table with their position (original_index), filtered, sorted and
// paged in SQL.
//
// Without filter and sort, a page is a range read of the primary key (project_id, table_digest,
// row_index): `row_index >= offset ORDER BY row_index LIMIT limit`, so its cost grows with the
// page, never with the offset or the table.
//
// Sorted and unfiltered, pages past the first come from the table's cached order (see
// sort-order-cache.ts), a range read on its position; the first page, filtered queries and small
// tables are sorted directly, in the order described in table-sort-sql.ts.
import { invalidRequest, mapInTurns } from '@weft/core';
import type * as T from '@weft/types';
import type { SelectQueryBuilder } from 'kysely';
import {
  joinRowValues,
  maxBindParameters,
  readJson,
  rowValuesLookupIsOptional,
  type Database,
  type Db,
  type StoredJsonText,
} from '../db/index.ts';
import { applyPaging, checkPaging, readPaged } from '../db/paging.ts';
import type { RequestContext } from '../store.ts';
import { DEFAULT_SORT_CACHE, sortedPageFromCache, type SortCacheOptions, type TableRowOut } from './sort-order-cache.ts';
import { tableRowCount, wholeTableByLookup } from './row-values.ts';
import { sortKeyValues, sortOrderItems } from './table-sort-sql.ts';
import { parseTableSort, type TableSortKey } from './table-sort.ts';

type RowQuery = SelectQueryBuilder<
  Database & { tr: Database['table_rows']; r: Database['rows'] },
  'tr' | 'r',
  { row_index: number; row_digest: string; val: StoredJsonText }
>;

interface Plan {
  sortKeys: TableSortKey[];
  limit: number | undefined;
  offset: number;
  /** Distinct row digests to keep; empty = all rows. */
  only: string[];
}

export async function tableQuery(
  db: Db,
  req: T.TableQueryReq,
  _ctx: RequestContext,
  sortCache: SortCacheOptions = DEFAULT_SORT_CACHE,
): Promise<T.TableQueryRes> {
  const plan = planQuery(db, req);
  if (plan.limit === 0) return { rows: [] };
  let rows: TableRowOut[] | null = null;
  if (plan.sortKeys.length > 0 && plan.only.length === 0) {
    rows = await sortedPageFromCache(
      db,
      { projectId: req.project_id, tableDigest: req.digest, keys: plan.sortKeys, offset: plan.offset, limit: plan.limit },
      sortCache,
    );
  }
  if (!rows) {
    // A whole table read or sorted: PostgreSQL's own join when it is large (row-values.ts).
    const wholeTable = plan.only.length === 0 && (plan.sortKeys.length > 0 || plan.limit === undefined);
    const rowCount = wholeTable && rowValuesLookupIsOptional(db) ? await tableRowCount(db, req.project_id, req.digest) : undefined;
    const query = directQuery(db, req, plan, wholeTableByLookup(rowCount));
    // A sort covers the whole table, whatever the page: on SQLite, off the main thread.
    rows = plan.sortKeys.length > 0 ? await db.readLong<TableRowOut>(query.compile()) : await readPaged(db, query, plan);
  }
  // A whole table can be 100,000 rows: decoded with turns for the event loop between them.
  return {
    rows: await mapInTurns(rows, (r) => ({ digest: r.row_digest, val: readJson(db, r.val), original_index: r.row_index })),
  };
}

/** The direct SELECT for a request, or null when it asks for no rows. Exported so tests can inspect its plan. */
export function tableQueryBuilder(db: Db, req: T.TableQueryReq, rowCount?: number): RowQuery | null {
  const plan = planQuery(db, req);
  return plan.limit === 0 ? null : directQuery(db, req, plan, wholeTableByLookup(rowCount));
}

// Validated before anything else, so a bad request fails whether or not the table exists.
function planQuery(db: Db, req: T.TableQueryReq): Plan {
  const sortKeys = parseTableSort(req.sort_by);
  const { limit, offset } = checkPaging(req.limit, req.offset);
  // An empty list, like none, is no filter (Weave tests `if filter.row_digests`).
  const only = [...new Set(req.filter?.row_digests ?? [])];
  const maxDigests = maxBindParameters(db) - 16;
  if (only.length > maxDigests)
    throw invalidRequest(`filter.row_digests lists ${only.length} digests; at most ${maxDigests} are supported`);
  return { sortKeys, limit, offset, only };
}

function directQuery(db: Db, req: T.TableQueryReq, { sortKeys, limit, offset, only }: Plan, lookup: boolean): RowQuery {
  let q: RowQuery = joinRowValues(db, db.kysely.selectFrom('table_rows as tr'), { lookup })
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

  const keyValues = sortKeyValues(db, sortKeys);
  if (keyValues) q = q.crossJoinLateral(keyValues);
  for (const item of sortOrderItems(db, sortKeys)) q = q.orderBy(item);
  return applyPaging(q, { limit, offset });
}
