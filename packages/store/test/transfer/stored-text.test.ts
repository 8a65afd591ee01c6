// Every JSON cell keeps its stored text through `weft copy` and `weft export` + `weft import`, in
// every direction: SQLite keeps JSON as sent (keys in the order sent) and so does PostgreSQL in
// table rows (json), so a move into either keeps that text byte for byte. PostgreSQL's jsonb holds
// no text: moved into SQLite it is written as its text without jsonb's display blanks, as a store
// writes JSON; moved into jsonb, SQLite's text becomes what jsonb makes of it, as on any write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/index.ts';
import { copyDatabase, exportArchive, importArchive } from '../../src/transfer/index.ts';
import { readBatches } from '../../src/transfer/table-io.ts';
import { COPIED_TABLES, EXPORTED_TABLES, type TransferTable } from '../../src/transfer/transfer-tables.ts';
import { createPgTestDatabase, describeIfPostgres } from '../dialects.ts';
import { seedEveryTable } from './seed-every-table.ts';

type Kind = 'sqlite' | 'postgres';
interface Cell {
  at: string;
  kind: string;
  text: string;
}

/** Every JSON cell of `tables`, in key order, as the text the database holds. */
async function jsonCells(db: Db, tables: readonly TransferTable[]): Promise<Cell[]> {
  const cells: Cell[] = [];
  for (const table of tables) {
    for await (const batch of readBatches(db, table, { batchSize: 1000 })) {
      for (const row of batch) {
        for (const [column, kind] of Object.entries(table.columns)) {
          if ((kind === 'json' || kind === 'json_text') && row[column] !== null) {
            cells.push({
              at: `${table.name} ${table.key.map((k) => String(row[k])).join(' ')} ${column}`,
              kind,
              text: row[column] as string,
            });
          }
        }
      }
    }
  }
  return cells;
}

// jsonb's text without the blank after each ',' and ':' outside strings (as jsonByteLength reads it).
const withoutJsonbBlanks = (text: string) => text.replace(/("(?:[^"\\]|\\.)*")|([,:]) /g, '$1$2');

describeIfPostgres('a move keeps the stored text of JSON', () => {
  let dir: string;
  const dbs: Db[] = [];
  const drops: Array<() => Promise<void>> = [];
  const sources = {} as Record<Kind, Db>;
  const fresh = async (kind: Kind): Promise<Db> => {
    let url = `sqlite:${join(dir, `${dbs.length}.sqlite`)}`;
    if (kind === 'postgres') {
      const pg = await createPgTestDatabase();
      drops.push(() => pg.drop());
      url = pg.url;
    }
    const db = await openDatabase(url);
    dbs.push(db);
    return db;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-stored-text-'));
    for (const kind of ['sqlite', 'postgres'] as const) {
      sources[kind] = await fresh(kind);
      await migrateToLatest(sources[kind]);
      await seedEveryTable(sources[kind], 'acme/one', 10);
    }
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
    for (const drop of drops) await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts from JSON whose keys are not in jsonb order: in every SQLite column, and in PostgreSQL table rows', async () => {
    const onSqlite = await jsonCells(sources.sqlite, EXPORTED_TABLES);
    const texts = (table: string, column: string) =>
      onSqlite.filter((c) => c.at.startsWith(`${table} `) && c.at.endsWith(` ${column}`)).map((c) => c.text);
    expect(texts('calls', 'inputs')[0]).toBe('{"prompt":"p0","temperature":0.5,"aa":"last"}');
    expect(texts('calls', 'attributes')[0]).toBe('{"zz":0,"aa":{"y":1,"b":[2,{"z":3,"a":4}]}}');
    expect(texts('feedback', 'payload')).toContain('{"zz":"z","aa":{"y":1,"b":2}}');
    expect(texts('model_checkpoints', 'metrics')[0]).toMatch(/^\{"loss":1,"acc":0\.5,/);
    const onPostgres = await jsonCells(sources.postgres, EXPORTED_TABLES);
    const logRow = onPostgres.find((c) => c.kind === 'json_text' && c.text.includes('"metrics":'));
    expect(logRow?.text).toMatch(/"metrics":\{"zz":\d,"aa":\d\}/);
  });

  it.each([
    ['sqlite', 'sqlite', 'copy'],
    ['sqlite', 'sqlite', 'export'],
    ['sqlite', 'postgres', 'copy'],
    ['sqlite', 'postgres', 'export'],
    ['postgres', 'sqlite', 'copy'],
    ['postgres', 'sqlite', 'export'],
    ['postgres', 'postgres', 'copy'],
    ['postgres', 'postgres', 'export'],
  ] as const)('%s → %s by %s', async (from, to, how) => {
    const source = sources[from];
    const target = await fresh(to);
    if (how === 'copy') await copyDatabase(source, target, { batchSize: 7 });
    else {
      const file = join(dir, `${from}-${to}.tar.gz`);
      await exportArchive(source, file, { weftVersion: 'test', batchSize: 7 });
      await importArchive(target, file, { batchSize: 7 });
    }
    const tables = how === 'copy' ? COPIED_TABLES : EXPORTED_TABLES;
    const before = await jsonCells(source, tables);
    const after = await jsonCells(target, tables);
    const expected: Cell[] = [];
    for (const cell of before) {
      let text = cell.text;
      if (cell.kind === 'json' && from === 'postgres' && to === 'sqlite') text = withoutJsonbBlanks(text);
      if (cell.kind === 'json' && from === 'sqlite' && to === 'postgres') {
        const { rows } = await sql<{ t: string }>`select cast(cast(${text} as jsonb) as text) as t`.execute(target.kysely);
        text = rows[0]!.t;
      }
      expected.push({ ...cell, text });
    }
    expect(after).toEqual(expected);
  });
});
