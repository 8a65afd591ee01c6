// Every table's columns, declared once: schema.ts derives the Kysely row types from this list
// and transfer/transfer-tables.ts the row mover's columns. The migrations stay as they were
// written (frozen history); test/transfer/transfer-tables.test.ts compares this list with a
// migrated database in both dialects, so a migration and this list cannot drift apart.
import { CALL_TABLES } from './table-columns-calls.ts';
import { DEPLOYMENT_TABLES } from './table-columns-deployment.ts';
import { MODEL_TABLES } from './table-columns-models.ts';
import { OBJECT_TABLES, SORT_ORDER_CACHE_TABLES } from './table-columns-objects.ts';

/** The tables of the Kysely schema (schema.ts's Database), table name → columns. */
export const TABLE_COLUMNS = { ...OBJECT_TABLES, ...CALL_TABLES, ...MODEL_TABLES, ...DEPLOYMENT_TABLES };

/** Tables only raw SQL reads, kept out of the Kysely schema. */
export const UNTYPED_TABLE_COLUMNS = { ...SORT_ORDER_CACHE_TABLES };

/** Every table of the migrated schema. */
export const ALL_TABLE_COLUMNS = { ...TABLE_COLUMNS, ...UNTYPED_TABLE_COLUMNS };
