// Cached sort orders of tables (see src/tables/sort-order-cache.ts). Tables are immutable and
// content-addressed, so the order of a table under one sort_by never changes: it is computed once
// and a sorted page becomes a range read on `position`, like a page in table order.
import type { Migration } from 'kysely';
import type { Dialect } from '../connect.ts';
import { createTable } from './create-table.ts';

export function tableSortOrders(dialect: Dialect): Migration {
  return {
    async up(db) {
      // One row per table row and order: its 0-based position in that order. sort_key names the
      // sort_by (a short hash of its canonical form). No foreign keys, as on table_rows: the
      // store writes an order only for a stored table, in one statement.
      await createTable(db, dialect, 'table_sort_orders', {
        columns: { project_id: 'text', table_digest: 'text', sort_key: 'text', position: 'int', row_index: 'int' },
        primaryKey: ['project_id', 'table_digest', 'sort_key', 'position'],
      });
    },
    async down(db) {
      await db.schema.dropTable('table_sort_orders').execute();
    },
  };
}
