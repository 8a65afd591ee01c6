// The Kysely view of the schema created by ./migrations, derived from the one column list of
// ./table-columns.ts (names, kinds, nullability, and each column's TypeScript type). Column
// names are the wire names.
//
// Conventions (identical in both databases):
// - every table but `models` has a primary key starting with project_id ("<entity>/<project>"),
//   and so does every index, so tables can become Citus tables distributed by project_id;
// - datetimes are TEXT in ISO-8601 UTC with milliseconds, `2025-01-01T00:00:00.000Z` (fixed
//   width, so text order is time order), created in JS (see nowIso);
// - JSON is jsonb in PostgreSQL and validated text in SQLite: write it with jsonParam/jsonText and
//   read it with readJson (./dialect-helpers.ts); table rows (`rows.val`, migration 0012) and
//   objects' values (`objects.val`, migration 0021) are PostgreSQL json, the text as written,
//   like SQLite's: written with jsonTextAsWritten;
// - booleans are integers 0/1; binary is blob/bytea (a Buffer in JS);
// - text compares byte-wise in both (PostgreSQL columns use COLLATE "C").
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { TableType } from './columns.ts';
import type { TABLE_COLUMNS } from './table-columns.ts';

export type { Flag, IsoDatetime, Json, JsonAsWritten, NullableJson, StoredJson, StoredJsonText } from './columns.ts';

type Columns = typeof TABLE_COLUMNS;

/** Every table's row interface, table name → `{ column: Kysely column type }`. */
export type Database = { [T in keyof Columns]: TableType<Columns[T]> };

export type TableName = keyof Database;
/** A row as read, as inserted, as updated: e.g. `Row<'objects'>`, `NewRow<'calls'>`. */
export type Row<T extends TableName> = Selectable<Database[T]>;
export type NewRow<T extends TableName> = Insertable<Database[T]>;
export type RowUpdate<T extends TableName> = Updateable<Database[T]>;

// Row interfaces named for the code that lists one table's columns (`Database['<table>']` otherwise).
export type CallsTable = Database['calls'];
export type JudgementsTable = Database['judgements'];
