// The sort-order cache: a table's row order under one sort_by, computed once and kept in
// table_sort_orders, so a sorted page at any offset is a range read on `position` instead of a
// sort of the whole table (on a million rows, seconds per page on both databases).
//
// Tables are immutable and content-addressed, so an order never goes stale. When it is built:
// - the first page(s) (offset < fromOffset) are answered by the direct top-k query, which costs
//   no more than the cache would to build, so a table sorted once and never paged pays nothing;
// - the first page past it builds the order with one INSERT … SELECT ROW_NUMBER() OVER (ORDER BY
//   the same terms as the direct query), then reads its range; every later request for that
//   order (the first page included) is a range read;
// - tables under minRows are never cached: sorting them directly is cheap.
// Replicas building the same order serialise on an advisory lock (PostgreSQL; SQLite has one
// connection per process) and the second one finds it complete. The order is written by one
// statement, so one row of it present means all of them are. Filtered queries (row_digests)
// bypass the cache: their positions are within the filtered rows.
import { digestBytes } from '@weft/core';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, Db, StoredJson } from '../db/index.ts';
import { lockKey } from '../db/lock.ts';
import { sortOrderItems } from './table-sort-sql.ts';
import type { TableSortKey } from './table-sort.ts';

export interface SortCacheOptions {
  /** Pages starting before this offset are sorted directly until the order is cached. */
  fromOffset: number;
  /** Tables with fewer rows are always sorted directly. */
  minRows: number;
}

export const DEFAULT_SORT_CACHE: SortCacheOptions = { fromOffset: 1, minRows: 1000 };

/** Declared here rather than in db/schema.ts: only this module reads or writes it. */
interface TableSortOrdersTable {
  project_id: string;
  table_digest: string;
  sort_key: string;
  position: number;
  row_index: number;
}
type CacheDb = Database & { table_sort_orders: TableSortOrdersTable };

export interface TableRowOut {
  row_index: number;
  row_digest: string;
  val: StoredJson;
}

export interface SortedPageRequest {
  projectId: string;
  tableDigest: string;
  keys: readonly TableSortKey[];
  offset: number;
  limit: number | undefined;
}

/** The key of an order: a short hash of the canonical sort_by (paths and directions). */
export function sortKeyOf(keys: readonly TableSortKey[]): string {
  return digestBytes(JSON.stringify(keys.map((k) => [k.path, k.direction]))).slice(0, 22);
}

/**
 * The page from the cached order, building the order first when the page is past fromOffset;
 * null when the caller should run the direct query instead.
 */
export async function sortedPageFromCache(db: Db, req: SortedPageRequest, opts: SortCacheOptions): Promise<TableRowOut[] | null> {
  const k = db.kysely.withTables<{ table_sort_orders: TableSortOrdersTable }>();
  const sortKey = sortKeyOf(req.keys);
  const page = await readPage(k, req, sortKey);
  // Rows found: the order exists. None: no order yet, or a page past the end.
  if (page.length > 0) return page;
  if (req.offset < opts.fromOffset) return null;
  const table = await k
    .selectFrom('tables')
    .select('row_count')
    .where('project_id', '=', req.projectId)
    .where('digest', '=', req.tableDigest)
    .executeTakeFirst();
  if (!table || req.offset >= table.row_count) return [];
  if (table.row_count < opts.minRows) return null;
  await buildOrder(db, k, req, sortKey);
  return readPage(k, req, sortKey);
}

function readPage(k: Kysely<CacheDb>, req: SortedPageRequest, sortKey: string): Promise<TableRowOut[]> {
  return cachedPageQuery(k, req, sortKey).execute();
}

/** A page of a cached order: a range of its primary key, then one lookup per row. Exported for plan tests. */
export function cachedPageQuery(db: Db | Kysely<CacheDb>, req: SortedPageRequest, sortKey = sortKeyOf(req.keys)) {
  const k = 'kysely' in db ? db.kysely.withTables<{ table_sort_orders: TableSortOrdersTable }>() : db;
  let q = k
    .selectFrom('table_sort_orders as so')
    .innerJoin('table_rows as tr', (join) =>
      join.onRef('tr.project_id', '=', 'so.project_id').onRef('tr.table_digest', '=', 'so.table_digest').onRef('tr.row_index', '=', 'so.row_index'),
    )
    .innerJoin('rows as r', (join) => join.onRef('r.project_id', '=', 'tr.project_id').onRef('r.digest', '=', 'tr.row_digest'))
    .select(['tr.row_index', 'tr.row_digest', 'r.val'])
    .where('so.project_id', '=', req.projectId)
    .where('so.table_digest', '=', req.tableDigest)
    .where('so.sort_key', '=', sortKey)
    .where('so.position', '>=', req.offset)
    .orderBy('so.position');
  if (req.limit !== undefined) q = q.limit(req.limit);
  return q;
}

/** Fills the order once; a concurrent builder of the same order waits, then finds it done. */
async function buildOrder(db: Db, k: Kysely<CacheDb>, req: SortedPageRequest, sortKey: string): Promise<void> {
  await k
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (trx) => {
      // The wider schema type is only for this module's table; the lock takes no table.
      await lockKey(trx as unknown as Transaction<Database>, db.dialect, JSON.stringify(['table_sort_orders', req.projectId, req.tableDigest, sortKey]));
      const done = await trx
        .selectFrom('table_sort_orders')
        .select('position')
        .where('project_id', '=', req.projectId)
        .where('table_digest', '=', req.tableDigest)
        .where('sort_key', '=', sortKey)
        .limit(1)
        .executeTakeFirst();
      if (done) return;
      const ordered = trx
        .selectFrom('table_rows as tr')
        .innerJoin('rows as r', (join) => join.onRef('r.project_id', '=', 'tr.project_id').onRef('r.digest', '=', 'tr.row_digest'))
        .select([
          sql<string>`cast(${req.projectId} as text)`.as('project_id'),
          sql<string>`cast(${req.tableDigest} as text)`.as('table_digest'),
          sql<string>`cast(${sortKey} as text)`.as('sort_key'),
          sql<number>`cast(row_number() over (order by ${sql.join(sortOrderItems(db, req.keys))}) - 1 as integer)`.as('position'),
          'tr.row_index',
        ])
        .where('tr.project_id', '=', req.projectId)
        .where('tr.table_digest', '=', req.tableDigest);
      await trx
        .insertInto('table_sort_orders')
        .columns(['project_id', 'table_digest', 'sort_key', 'position', 'row_index'])
        .expression(ordered)
        // Safe even if another writer got past the lock (it cannot: belt and braces).
        .onConflict((oc) => oc.columns(['project_id', 'table_digest', 'sort_key', 'position']).doNothing())
        .execute();
    });
}
