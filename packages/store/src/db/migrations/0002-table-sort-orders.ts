// Cached sort orders of tables (see src/tables/sort-order-cache.ts). Tables are immutable and
// content-addressed, so the order of a table under one sort_by never changes: it is computed once
// and a sorted page becomes a range read of its chunks, like a page in table order.
import type { Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createTable } from './create-table.ts';

export function tableSortOrders(dialect: Dialect): Migration {
  return {
    async up(db) {
      // The order in chunks: row_indexes holds the table positions of order positions
      // chunk × size … chunk × size + size - 1, as a JSON array of integers. A row per position
      // would cost ~400 bytes a row in PostgreSQL (keys repeated in the heap and the index);
      // chunks cost a few bytes a row. sort_key names the sort_by (a short hash of its canonical
      // form). No foreign keys, as on table_rows: an order is written for a stored table, in one
      // statement.
      await createTable(db, dialect, 'table_sort_orders', {
        columns: { project_id: 'text', table_digest: 'text', sort_key: 'text', chunk: 'int', row_indexes: 'json' },
        primaryKey: ['project_id', 'table_digest', 'sort_key', 'chunk'],
      });
    },
    async down(db) {
      await db.schema.dropTable('table_sort_orders').execute();
    },
  };
}
