// The columns of objects, tables and files (see ./table-columns.ts).
import { col, nullable, type TableColumns } from './columns.ts';

export const OBJECT_TABLES = {
  objects: {
    project_id: col.text(),
    object_id: col.text(),
    digest: col.text(),
    version_index: col.int(),
    kind: col.text(),
    base_object_class: nullable(col.text()),
    leaf_object_class: nullable(col.text()),
    val: col.jsonText(),
    /** Length of the canonical JSON dump of `val`. */
    size_bytes: col.int(),
    created_at: col.datetime(),
    deleted_at: nullable(col.datetime()),
    svc_user_id: nullable(col.text()),
    /** Exactly one live version per object has 1; maintained by the store. */
    is_latest: col.flag(),
  },
  tables: {
    project_id: col.text(),
    digest: col.text(),
    row_count: col.int(),
    created_at: col.datetime(),
  },
  /** The ordered (duplicates allowed) row list of a table; a page is a range of row_index. */
  table_rows: {
    project_id: col.text(),
    table_digest: col.text(),
    row_index: col.int(),
    row_digest: col.text(),
  },
  /** Table rows, stored once per digest. */
  rows: {
    project_id: col.text(),
    digest: col.text(),
    val: col.jsonText(),
  },
  files: {
    project_id: col.text(),
    digest: col.text(),
    size_bytes: col.int(),
    content: col.blob(),
    created_at: col.datetime(),
  },
  /** A tag on one object version (migration 0010); removed when the version is deleted. */
  object_tags: {
    project_id: col.text(),
    object_id: col.text(),
    digest: col.text(),
    tag: col.text(),
    created_at: col.datetime(),
  },
  /**
   * An alias of an object, naming one of its live versions by digest (migration 0010); setting it
   * again moves it. `latest` is never stored (it is the is_latest version).
   */
  object_aliases: {
    project_id: col.text(),
    object_id: col.text(),
    alias: col.text(),
    digest: col.text(),
    /** When it was last set (moved). */
    created_at: col.datetime(),
  },
} satisfies Record<string, TableColumns>;

/**
 * Migration 0002's cache of sorted table orders, in chunks. Not in the Kysely schema: only
 * tables/sort-order-cache.ts reads it, in raw SQL.
 */
export const SORT_ORDER_CACHE_TABLES = {
  table_sort_orders: {
    project_id: col.text(),
    table_digest: col.text(),
    sort_key: col.text(),
    chunk: col.int(),
    row_indexes: col.json(),
  },
} satisfies Record<string, TableColumns>;
