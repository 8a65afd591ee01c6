// The JSON array dialect helpers give the same rows on both databases: positions from 0, elements
// as JSON (readable with -> and ->>) or as text, and an aggregate back into an ordered array.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { readJson } from '../src/db/index.ts';
import { jsonArrayElements, jsonIntArrayAgg, jsonStringArrayElements } from '../src/db/dialect-json-arrays.ts';
import { describeEachDialect } from './dialects.ts';

describeEachDialect('dialect-json-arrays', (getDb) => {
  it('expands a JSON array of containers into (idx, value) rows that -> and ->> read alike', async () => {
    const db = getDb();
    // As table/create uses it: [digest, value] pairs.
    const text = JSON.stringify([
      ['d0', { a: 1 }],
      ['d1', ['x', 2]],
      ['d2', 'plain'],
      ['d3', 3.5],
    ]);
    const { rows } = await sql<{
      idx: number;
      digest: string;
      val: unknown;
    }>`select idx, value ->> 0 as digest, value -> 1 as val from ${jsonArrayElements(db.dialect, text)} as e order by idx`.execute(
      db.kysely,
    );
    expect(rows.map((r) => [Number(r.idx), r.digest, readJson(db, r.val)])).toEqual([
      [0, 'd0', { a: 1 }],
      [1, 'd1', ['x', 2]],
      [2, 'd2', 'plain'],
      [3, 'd3', 3.5],
    ]);
  });

  it('gives each element as written: key order and number spelling kept (what table rows store)', async () => {
    const db = getDb();
    const row = '{"zeta":1e2,"a":[1.50,-0.0],"é":{"y":true,"x":null}}';
    const { rows } = await sql<{ val: string }>`select cast(value -> 1 as text) as val from ${jsonArrayElements(
      db.dialect,
      `[["d0",${row}]]`,
    )} as e`.execute(db.kysely);
    expect(rows.map((r) => r.val)).toEqual([row]);
  });

  it('expands an array of strings into the strings themselves', async () => {
    const db = getDb();
    const { rows } = await sql<{
      idx: number;
      value: string;
    }>`select idx, value from ${jsonStringArrayElements(db.dialect, JSON.stringify(['b', 'a', 'é"x']))} as e order by idx`.execute(
      db.kysely,
    );
    expect(rows.map((r) => [Number(r.idx), r.value])).toEqual([
      [0, 'b'],
      [1, 'a'],
      [2, 'é"x'],
    ]);
  });

  it('aggregates integers back into an array in the given order', async () => {
    const db = getDb();
    const source = jsonArrayElements(db.dialect, JSON.stringify([30, 10, 20]));
    const { rows } = await sql<{ agg: unknown }>`select ${jsonIntArrayAgg(db.dialect, 'idx', 'idx')} as agg from ${source} as e`.execute(
      db.kysely,
    );
    expect(readJson(db, rows[0]!.agg)).toEqual([0, 1, 2]);
  });
});
