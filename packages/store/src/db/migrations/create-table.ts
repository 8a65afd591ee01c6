// A compact, dialect-aware table definition for migrations, so each table reads as one literal.
//
// Released migrations depend on what these functions emit: never change an existing mapping
// (that would silently change old migrations); add new kinds or options instead.
import { sql, type CreateTableBuilder, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { ColumnKind } from '../columns.ts';
import type { Dialect } from '../db.ts';

export type { ColumnKind };
/** A trailing `?` makes the column nullable; every other column is NOT NULL. */
export type ColumnSpec = ColumnKind | `${ColumnKind}?`;

export interface ForeignKeySpec {
  columns: string[];
  references: string;
  referencedColumns: string[];
  onDelete?: 'cascade' | 'restrict';
}

export interface TableSpec {
  columns: Record<string, ColumnSpec>;
  primaryKey: string[];
  /** constraint name → columns */
  unique?: Record<string, string[]>;
  /** constraint name → boolean SQL expression */
  checks?: Record<string, Expression<unknown>>;
  /** constraint name → foreign key */
  foreignKeys?: Record<string, ForeignKeySpec>;
}

export function columnType(dialect: Dialect, kind: ColumnKind): RawBuilder<unknown> {
  const pg = dialect === 'postgres';
  switch (kind) {
    // "C": byte-wise comparison and ORDER BY, as SQLite's default BINARY collation, whatever
    // locale the PostgreSQL database was created with.
    case 'text':
      return pg ? sql`text COLLATE "C"` : sql`text`;
    case 'int':
      return sql`integer`;
    case 'double':
      return pg ? sql`double precision` : sql`real`;
    case 'json':
      return pg ? sql`jsonb` : sql`text`;
    case 'json_text':
      return pg ? sql`json` : sql`text`;
    case 'blob':
      return pg ? sql`bytea` : sql`blob`;
  }
}

// Kysely<any>: migrations must not depend on the current typed schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createTable(db: Kysely<any>, dialect: Dialect, name: string, spec: TableSpec): Promise<void> {
  // Columns are added in a loop, so Kysely cannot track their names in the type.
  let table: CreateTableBuilder<string, string> = db.schema.createTable(name);
  for (const [column, columnSpec] of Object.entries(spec.columns)) {
    const nullable = columnSpec.endsWith('?');
    const kind = (nullable ? columnSpec.slice(0, -1) : columnSpec) as ColumnKind;
    table = table.addColumn(column, columnType(dialect, kind), (col) => {
      let c = nullable ? col : col.notNull();
      // jsonb and json reject malformed JSON; make SQLite's text column do the same.
      if ((kind === 'json' || kind === 'json_text') && dialect === 'sqlite') c = c.check(sql`json_valid(${sql.ref(column)})`);
      return c;
    });
  }
  table = table.addPrimaryKeyConstraint(`${name}_pkey`, spec.primaryKey);
  for (const [constraint, columns] of Object.entries(spec.unique ?? {})) {
    table = table.addUniqueConstraint(constraint, columns);
  }
  for (const [constraint, check] of Object.entries(spec.checks ?? {})) {
    table = table.addCheckConstraint(constraint, check);
  }
  for (const [constraint, fk] of Object.entries(spec.foreignKeys ?? {})) {
    table = table.addForeignKeyConstraint(constraint, fk.columns, fk.references, fk.referencedColumns, (c) =>
      fk.onDelete ? c.onDelete(fk.onDelete) : c,
    );
  }
  // STRICT: SQLite rejects values of the wrong type, as PostgreSQL does, instead of storing them.
  if (dialect === 'sqlite') table = table.modifyEnd(sql`strict`);
  await table.execute();
}

/** Every index in the schema starts with project_id (see schema.ts); `where` makes it partial. */
export async function createIndex(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as createTable: not the typed schema
  db: Kysely<any>,
  name: string,
  table: string,
  columns: string[],
  where?: Expression<unknown>,
): Promise<void> {
  let index = db.schema.createIndex(name).on(table).columns(columns);
  // Kysely's createIndex().where() inlines values: DDL cannot take bound parameters.
  if (where) index = index.where(where as Expression<boolean>);
  await index.execute();
}
