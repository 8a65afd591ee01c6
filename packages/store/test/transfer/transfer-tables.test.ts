// The one column list (db/table-columns.ts) and the row mover's table list against the migrated
// schema: a table or column a migration adds and the list does not, or a kind, nullability or
// default that differs, fails here, so export, import and copy never leave data behind silently.
// Also the line codec's promises: lossless numbers, SQL NULL apart from JSON null, bytes, and
// checksums that ignore jsonb's key order.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/index.ts';
import { ALL_TABLE_COLUMNS } from '../../src/db/table-columns.ts';
import { decodeLine, encodeLine, rowHash } from '../../src/transfer/row-codec.ts';
import { EXPORTED_TABLES, TRANSFER_TABLES, type TransferTable } from '../../src/transfer/transfer-tables.ts';
import { describeEachDialect } from '../dialects.ts';

interface ColumnFact {
  table: string;
  column: string;
  type: string;
  /** 1-based position in the primary key; 0 when not in it. */
  pk: number;
  /** 1 when the column allows NULL. */
  nullable: number;
  /** 1 when the column has a default. */
  defaulted: number;
}

async function columnFacts(db: Db): Promise<ColumnFact[]> {
  if (db.dialect === 'postgres') {
    const { rows } = await sql<ColumnFact>`
      select c.table_name as "table", c.column_name as "column", c.data_type as "type",
        coalesce((select k.ordinal_position from information_schema.key_column_usage k
          join information_schema.table_constraints tc on tc.constraint_name = k.constraint_name and tc.table_name = k.table_name
          where tc.constraint_type = 'PRIMARY KEY' and k.table_name = c.table_name and k.column_name = c.column_name), 0)::int as pk,
        (c.is_nullable = 'YES')::int as nullable, (c.column_default is not null)::int as defaulted
      from information_schema.columns c
      where c.table_schema = current_schema() and c.table_name not like 'kysely_%'`.execute(db.kysely);
    return rows;
  }
  const { rows } = await sql<ColumnFact>`
    select m.name as "table", p.name as "column", lower(p.type) as "type", p.pk as pk,
      1 - p."notnull" as nullable, p.dflt_value is not null as defaulted
    from sqlite_master m join pragma_table_info(m.name) p
    where m.type = 'table' and m.name not like 'kysely_%' and m.name not like 'sqlite_%'`.execute(db.kysely);
  return rows;
}

const PG_TYPES: Record<string, string> = {
  text: 'text',
  int: 'integer',
  double: 'double precision',
  json: 'jsonb',
  json_text: 'json',
  blob: 'bytea',
};
const SQLITE_TYPES: Record<string, string> = {
  text: 'text',
  int: 'integer',
  double: 'real',
  json: 'text',
  json_text: 'text',
  blob: 'blob',
};

describeEachDialect('transfer table list', (getDb) => {
  it('names every table and column of the migrated schema, with its kind and primary key', async () => {
    const db = getDb();
    const facts = await columnFacts(db);
    const types = db.dialect === 'postgres' ? PG_TYPES : SQLITE_TYPES;
    const actual = facts.map((f) => `${f.table}.${f.column} ${f.type} pk${f.pk}`).sort();
    const listed = TRANSFER_TABLES.flatMap((t) =>
      Object.entries(t.columns).map(([column, kind]) => `${t.name}.${column} ${types[kind]} pk${t.key.indexOf(column) + 1}`),
    ).sort();
    expect(listed).toEqual(actual);
  });

  it('declares each column nullable, and generated (defaulted), as the migrated schema has it', async () => {
    const facts = await columnFacts(getDb());
    const actual = facts.map((f) => `${f.table}.${f.column} null${f.nullable} default${f.defaulted}`).sort();
    const declared = Object.entries(ALL_TABLE_COLUMNS)
      .flatMap(([table, columns]) =>
        Object.entries(columns).map(([column, c]) => `${table}.${column} null${Number(c.nullable)} default${Number(c.generated)}`),
      )
      .sort();
    expect(declared).toEqual(actual);
  });

  it('lists parents before children, so rows insert table by table with foreign keys on', async () => {
    const db = getDb();
    const { rows } =
      db.dialect === 'postgres'
        ? await sql<{ child: string; parent: string }>`
            select tc.table_name as child, ccu.table_name as parent from information_schema.table_constraints tc
            join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name
            where tc.constraint_type = 'FOREIGN KEY'`.execute(db.kysely)
        : await sql<{ child: string; parent: string }>`
            select m.name as child, f."table" as parent from sqlite_master m join pragma_foreign_key_list(m.name) f
            where m.type = 'table'`.execute(db.kysely);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const position = (name: string) => TRANSFER_TABLES.findIndex((t) => t.name === name);
    for (const { child, parent } of rows) expect(position(parent), `${parent} before ${child}`).toBeLessThan(position(child));
  });
});

describe('transfer scopes', () => {
  it('exports project data only: never the database keys, never caches', () => {
    const exported = EXPORTED_TABLES.map((t) => t.name);
    expect(exported).not.toContain('api_keys');
    expect(exported).not.toContain('auth_users');
    expect(exported).not.toContain('table_sort_orders');
    for (const t of EXPORTED_TABLES) expect(Object.keys(t.columns)).toContain('project_id');
  });
});

describe('line codec', () => {
  const calls = TRANSFER_TABLES.find((t) => t.name === 'calls') as TransferTable;
  const files = TRANSFER_TABLES.find((t) => t.name === 'files') as TransferTable;

  it('keeps JSON text as stored (key order, number lexemes), JSON null apart from SQL NULL, and text with line breaks on one line', () => {
    const row = {
      project_id: 'a/b',
      id: 'c1',
      inputs: '{"x":1.0,"big":12345678901234567890,"s":"line\\nbreak","aa":[1e2,-0.0]}',
      output: 'null',
      summary: null,
      attributes: '{\n  "pretty": true\n}',
      svc_run_step: 3,
      exception: 'Traceback\n  boom',
    };
    const line = encodeLine(calls, row);
    expect(line).not.toMatch(/\n/);
    expect(line).toContain('"inputs":{"x":1.0,"big":12345678901234567890');
    expect(line).not.toContain('"summary"');
    const back = decodeLine(calls, line);
    // The text as it was: keys in the order stored (SQLite keeps them as sent), numbers as spelt.
    expect(back.inputs).toBe(row.inputs);
    // Line breaks between tokens become blanks on the line: the same JSON.
    expect(back.attributes).toBe('{   "pretty": true }');
    expect(back.output).toBe('null');
    expect(back.summary).toBeNull();
    expect(back.svc_run_step).toBe(3);
    expect(back.exception).toBe('Traceback\n  boom');
    expect(rowHash(calls, back)).toBe(rowHash(calls, row));
  });

  it('moves bytes as base64 and refuses unknown columns or wrong kinds', () => {
    const content = Buffer.from([0, 255, 10, 13, 1]);
    const back = decodeLine(files, encodeLine(files, { project_id: 'a/b', digest: 'd', size_bytes: 5, content, created_at: 't' }));
    expect(Buffer.compare(back.content as Buffer, content)).toBe(0);
    expect(() => decodeLine(files, '{"project_id":"a/b","extra":1}')).toThrow(/unknown column "extra"/);
    expect(() => decodeLine(files, '{"project_id":1}')).toThrow(/"project_id" holds a number, expected text/);
    expect(() => decodeLine(files, '{"project_id":')).toThrow(/not JSON/);
  });

  it('checksums ignore key order (jsonb reorders) but not 1 against 1.0', () => {
    const base = { project_id: 'a/b', id: 'c' };
    const hash = (inputs: string) => rowHash(calls, { ...base, inputs });
    expect(hash('{"b":1,"a":[2]}')).toBe(hash('{"a": [2], "b": 1}'));
    expect(hash('{"a":1}')).not.toBe(hash('{"a":1.0}'));
    expect(rowHash(calls, { ...base, output: 'null' })).not.toBe(rowHash(calls, { ...base, output: null }));
  });
});
