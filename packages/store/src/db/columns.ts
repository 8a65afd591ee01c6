// The builders every table's column list is written with (./table-columns.ts): each column is a
// small runtime value (its kind and nullability, which the row mover reads) that also carries,
// as a phantom type, the column's Kysely type, so schema.ts derives the row types from the same
// list instead of repeating it.
import type { ColumnType, Generated } from 'kysely';

/**
 * What the database holds, the kinds the migrations create (migrations/create-table.ts).
 * `json_text`: JSON kept as written (PostgreSQL json, not jsonb), for values read whole.
 */
export type ColumnKind = 'text' | 'int' | 'double' | 'json' | 'json_text' | 'blob';

declare const storedJson: unique symbol;
/**
 * A JSON column's SQL value. Opaque on purpose: binding a JS object directly would fail in
 * better-sqlite3 and, for arrays, turn into a PostgreSQL array literal in pg. Use jsonParam or
 * jsonText to write and readJson to read.
 */
export interface StoredJson {
  readonly [storedJson]: 'StoredJson';
}

declare const storedJsonText: unique symbol;
/**
 * A column holding JSON text as written (PostgreSQL json, not jsonb): table rows, which are large
 * and read whole far more often than inside. A type of its own, so only jsonTextAsWritten (no
 * jsonb cast) can write it.
 */
export interface StoredJsonText {
  readonly [storedJsonText]: 'StoredJsonText';
}

export type Json = ColumnType<StoredJson, StoredJson, StoredJson>;
export type JsonAsWritten = ColumnType<StoredJsonText, StoredJsonText, StoredJsonText>;
export type NullableJson = ColumnType<StoredJson | null, StoredJson | null, StoredJson | null>;
/** ISO-8601 UTC with milliseconds, e.g. `2025-01-01T00:00:00.000Z`. */
export type IsoDatetime = string;
/** A boolean stored as an integer (a CHECK keeps it 0 or 1). */
export type Flag = 0 | 1;

declare const kyselyType: unique symbol;
/** One column: what the database holds (kind, nullability) and, as a phantom, its Kysely type `T`. */
export interface Column<T = unknown> {
  readonly kind: ColumnKind;
  readonly nullable: boolean;
  /** The database fills it when an insert leaves it out (a default). */
  readonly generated: boolean;
  /** Never set: carries the Kysely column type for the row types of schema.ts. */
  readonly [kyselyType]?: T;
}

/** A table's columns, in the table's column order. */
export type TableColumns = Readonly<Record<string, Column>>;

/** The Kysely row interface of a column list: `{ project_id: string; deleted_at: IsoDatetime | null; … }`. */
export type TableType<C extends TableColumns> = { -readonly [K in keyof C]-?: C[K] extends Column<infer T> ? T : never };

function column<T>(kind: ColumnKind): Column<T> {
  return { kind, nullable: false, generated: false };
}

// A JSON column stays a ColumnType when nullable (NullableJson), as the Kysely helpers expect.
type OrNull<T> = T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S | null, I | null, U | null> : T | null;

/** The column, nullable: SQL NULL allowed, and optional on insert. */
export function nullable<T>(c: Column<T>): Column<OrNull<T>> {
  return { kind: c.kind, nullable: true, generated: c.generated };
}

/** The column with a database default: optional on insert. */
export function generated<T>(c: Column<T>): Column<Generated<T>> {
  return { kind: c.kind, nullable: c.nullable, generated: true };
}

/**
 * The column kinds (see ColumnKind); a narrower TypeScript type may be given where the database
 * keeps one by a CHECK, e.g. `col.text<Access>()`.
 */
export const col = {
  text: <T extends string = string>() => column<T>('text'),
  /** ISO-8601 UTC text (see IsoDatetime). */
  datetime: () => column<IsoDatetime>('text'),
  int: <T extends number = number>() => column<T>('int'),
  flag: () => column<Flag>('int'),
  double: () => column<number>('double'),
  /** jsonb in PostgreSQL, validated text in SQLite. */
  json: () => column<Json>('json'),
  /** PostgreSQL json (the text as written), validated text in SQLite. */
  jsonText: () => column<JsonAsWritten>('json_text'),
  blob: () => column<Buffer>('blob'),
};
