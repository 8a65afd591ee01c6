// The JSON array dialect helpers give the same rows on both databases: positions from 0, elements
// as text, and an aggregate back into an ordered array.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { readJson } from '../src/db/index.ts';
import { jsonIntArrayAgg, jsonStringArrayElements } from '../src/db/dialect-json-arrays.ts';
import { describeEachDialect } from './dialects.ts';

describeEachDialect('dialect-json-arrays', (getDb) => {
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
    const source = jsonStringArrayElements(db.dialect, JSON.stringify(['30', '10', '20']));
    const { rows } = await sql<{ agg: unknown }>`select ${jsonIntArrayAgg(db.dialect, 'idx', 'idx')} as agg from ${source} as e`.execute(
      db.kysely,
    );
    expect(readJson(db, rows[0]!.agg)).toEqual([0, 1, 2]);
  });
});
