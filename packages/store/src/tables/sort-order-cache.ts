// The sort-order cache: a table's row order under one sort_by, computed once and kept in
// table_sort_orders, so a sorted page at any offset reads one or two chunks of the order instead
// of sorting the whole table (on a million rows, seconds per page on both databases).
//
// Tables are immutable and content-addressed, so an order never goes stale. When it is built:
// - the first page(s) (offset < fromOffset) are answered by the direct top-k query, which costs
//   about what building the order would, so a table sorted once and never paged pays nothing;
// - the first page past it builds the order with one INSERT … SELECT over ROW_NUMBER() OVER
//   (ORDER BY the same terms as the direct query), then reads it; every later request for that
//   order (the first page included) is a read of its chunks;
// - tables under minRows are never cached: sorting them directly is cheap.
// Replicas building the same order serialise on an advisory lock (PostgreSQL; SQLite has one
// connection per process) and the second one finds it complete. The order is written by one
// statement, so one chunk of it present means all of them are. Filtered queries (row_digests)
// bypass the cache: their positions are within the filtered rows.
//
// On SQLite the sort runs on a reader thread (db.readLong) and only the chunks' insert (in
// batches) on the server's connection, so other requests go on meanwhile.
import { digestBytes } from '@weft/core';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { rowValuesJoin, type Database, type Db, type StoredJson, type StoredJsonText } from '../db/index.ts';
import { lockKey } from '../db/lock.ts';
import { jsonIntArrayAgg, jsonIntArrayColumnElements } from '../db/dialect-json-arrays.ts';
import { statementsHoldEventLoop } from '../db/dialect-event-loop.ts';
import { sortKeyValues, sortOrderItems } from './table-sort-sql.ts';
import type { TableSortKey } from './table-sort.ts';
import { tableRowCount, wholeTableByLookup } from './row-values.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface SortCacheOptions {
  /** Pages starting before this offset are sorted directly until the order is cached. */
  fromOffset: number;
  /** Tables with fewer rows are always sorted directly. */
  minRows: number;
}

export const DEFAULT_SORT_CACHE: SortCacheOptions = { fromOffset: 1, minRows: 1000 };

/** Order positions per chunk row: a page of 100 spans at most two, and a chunk stays below PostgreSQL's TOAST threshold. */
export const CHUNK_SIZE = 128;

export interface TableRowOut {
  row_index: number;
  row_digest: string;
  val: StoredJsonText;
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
  const page = (await cachedPageQuery(db, req).execute(db.kysely)).rows;
  // Rows found: the order exists. None: no order yet, or a page past the end.
  if (page.length > 0) return page;
  if (req.offset < opts.fromOffset) return null;
  const rowCount = await tableRowCount(db, req.projectId, req.tableDigest);
  if (rowCount === undefined || req.offset >= rowCount) return [];
  if (rowCount < opts.minRows) return null;
  await buildOrder(db, req, rowCount);
  return (await cachedPageQuery(db, req).execute(db.kysely)).rows;
}

/**
 * A page of a cached order: the chunks holding it (a range of the primary key), their positions
 * in order, limited before the rows are looked up. Exported for plan tests.
 */
export function cachedPageQuery(db: Db, req: SortedPageRequest): RawBuilder<TableRowOut> {
  const first = Math.floor(req.offset / CHUNK_SIZE);
  const last = req.limit === undefined ? null : Math.floor((req.offset + req.limit - 1) / CHUNK_SIZE);
  return sql<TableRowOut>`select tr.row_index, tr.row_digest, r.val
    from (
      select so.chunk, e."key", e."value"
      from table_sort_orders as so ${jsonIntArrayColumnElements(db.dialect, 'so.row_indexes')}
      where so.project_id = ${req.projectId} and so.table_digest = ${req.tableDigest} and so.sort_key = ${sortKeyOf(req.keys)}
        and so.chunk >= ${first} ${last === null ? sql`` : sql`and so.chunk <= ${last}`}
        and so.chunk * ${sql.lit(CHUNK_SIZE)} + e."key" >= ${req.offset}
      order by so.chunk, e."key"
      ${req.limit === undefined ? sql`` : sql`limit ${req.limit}`}
    ) as p
    join table_rows as tr on tr.project_id = ${req.projectId} and tr.table_digest = ${req.tableDigest} and tr.row_index = p."value"
    ${rowValuesJoin(db, { lookup: wholeTableByLookup(req.limit) })}
    order by p.chunk, p."key"`;
}

/** Fills the order once; a concurrent builder of the same order waits, then finds it done. */
async function buildOrder(db: Db, req: SortedPageRequest, rowCount: number): Promise<void> {
  const sortKey = sortKeyOf(req.keys);
  const chunks = orderChunks(db, req, rowCount);
  // SQLite: the sort (seconds on a million rows) runs on the reader thread, before the write.
  const computed = statementsHoldEventLoop(db) ? await db.readLong<OrderChunk>(chunks.compile(db.kysely)) : undefined;
  await db.kysely
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (trx: Transaction<Database>) => {
      await lockKey(trx, db.dialect, JSON.stringify(['table_sort_orders', req.projectId, req.tableDigest, sortKey]));
      const { rows: done } = await sql`select chunk from table_sort_orders
        where project_id = ${req.projectId} and table_digest = ${req.tableDigest} and sort_key = ${sortKey} limit 1`.execute(trx);
      if (done.length > 0) return;
      if (!computed) {
        // PostgreSQL: one statement on the database server; the event loop is not involved.
        await sql`insert into table_sort_orders (project_id, table_digest, sort_key, chunk, row_indexes)
          select cast(${req.projectId} as text), cast(${req.tableDigest} as text), cast(${sortKey} as text), chunk, row_indexes
          from (${chunks}) as chunks
          on conflict (project_id, table_digest, sort_key, chunk) do nothing`.execute(trx);
        return;
      }
      // In batches, the event loop free between them (the transaction keeps other statements out).
      for (let i = 0; i < computed.length; i += INSERT_BATCH) {
        const values = computed
          .slice(i, i + INSERT_BATCH)
          .map((c) => sql`(${req.projectId}, ${req.tableDigest}, ${sortKey}, ${c.chunk}, ${c.row_indexes})`);
        await sql`insert into table_sort_orders (project_id, table_digest, sort_key, chunk, row_indexes)
          values ${sql.join(values)}
          on conflict (project_id, table_digest, sort_key, chunk) do nothing`.execute(trx);
        await nextTurn();
      }
    });
}

interface OrderChunk {
  chunk: number;
  row_indexes: StoredJson;
}

const INSERT_BATCH = 500;

/** The order's chunks: positions from the same ORDER BY terms as the direct query, grouped. */
function orderChunks(db: Db, req: SortedPageRequest, rowCount: number): RawBuilder<OrderChunk> {
  return sql<OrderChunk>`select chunk, ${jsonIntArrayAgg(db.dialect, 'row_index', 'pos')} as row_indexes
    from (
      select row_index, pos, pos / ${sql.lit(CHUNK_SIZE)} as chunk
      from (
        select tr.row_index, row_number() over (order by ${sql.join(sortOrderItems(db, req.keys))}) - 1 as pos
        from table_rows as tr
        ${rowValuesJoin(db, { lookup: wholeTableByLookup(rowCount) })}
        ${keysJoin(db, req.keys)}
        where tr.project_id = ${req.projectId} and tr.table_digest = ${req.tableDigest}
      ) as ordered
    ) as positioned
    group by chunk`;
}

/** sortKeyValues as raw FROM-list SQL (nothing on SQLite). */
function keysJoin(db: Db, keys: readonly TableSortKey[]): RawBuilder<unknown> {
  const values = sortKeyValues(db, keys);
  return values ? sql`cross join lateral ${values}` : sql``;
}
