// The table operations of the store: immutable, content-addressed lists of rows.
import type { Db } from '../db/index.ts';
import { storeMethods } from '../store.ts';
import { DEFAULT_SORT_CACHE, type SortCacheOptions } from './sort-order-cache.ts';
import { tableCreate } from './table-create.ts';
import { tableUpdate } from './table-update.ts';
import { tableQuery } from './table-query.ts';
import { tableQueryStats } from './table-query-stats.ts';
import { tableQueryStatsBatch } from './table-query-stats-batch.ts';

export interface TableMethodOptions {
  db: Db;
  /** When sorted pages come from a cached order; tests lower the thresholds. */
  sortCache?: Partial<SortCacheOptions>;
}

export function tableMethods({ db, sortCache }: TableMethodOptions) {
  const cache: SortCacheOptions = { ...DEFAULT_SORT_CACHE, ...sortCache };
  return storeMethods({
    tableCreate: (req, ctx) => tableCreate(db, req, ctx),
    tableUpdate: (req, ctx) => tableUpdate(db, req, ctx),
    tableQuery: (req, ctx) => tableQuery(db, req, ctx, cache),
    tableQueryStats: (req) => tableQueryStats(db, req),
    tableQueryStatsBatch: (req) => tableQueryStatsBatch(db, req),
  });
}
