// On a SQLite file, a table's whole-table sorts (the first sorted page, the build of a sort order)
// run on the reader thread: the event loop keeps turning while they run, and the answers are the
// same as in memory, where they run in place.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/index.ts';
import { tableMethods } from '../../src/tables/index.ts';
import { turnsDuring } from '../event-loop-turns.ts';
import { ALICE, newProject } from '../objects/helpers.ts';

const ROWS = Array.from({ length: 20_000 }, (_, i) => ({ i, score: (i * 7919) % 10_007, text: `row ${i}` }));
const byScore = [...ROWS].sort((a, b) => a.score - b.score || a.i - b.i);

let dir: string;
let file: Db;
let memory: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-store-'));
  file = await openDatabase(`sqlite:${join(dir, 'weft.sqlite')}`);
  memory = await openDatabase('sqlite::memory:');
  await Promise.all([migrateToLatest(file), migrateToLatest(memory)]);
});
afterAll(async () => {
  await Promise.all([file?.close(), memory?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

it('sorts a whole table off the main thread, with the answers of the in-memory database', async () => {
  const p = newProject('offthread');
  const onFile = tableMethods({ db: file, sortCache: { fromOffset: 1, minRows: 1000 } });
  const inMemory = tableMethods({ db: memory, sortCache: { fromOffset: 1, minRows: 1000 } });
  const { digest } = await onFile.tableCreate({ table: { project_id: p, rows: ROWS } }, ALICE);
  await inMemory.tableCreate({ table: { project_id: p, rows: ROWS } }, ALICE);
  const sort_by = [{ field: 'score', direction: 'asc' as const }];

  for (const offset of [0, 10_000, 19_950]) {
    const req = { project_id: p, digest, sort_by, offset, limit: 100 };
    // offset 0: the direct top-k sort; 10,000: builds the order; 19,950: reads the cached order.
    const { value, turns } = await turnsDuring(() => onFile.tableQuery(req, ALICE));
    expect(value.rows.map((r) => (r.val as { i: number }).i)).toEqual(byScore.slice(offset, offset + 100).map((r) => r.i));
    expect(value).toEqual(await inMemory.tableQuery(req, ALICE));
    if (offset < 19_950) expect(turns).toBeGreaterThan(2);
  }
});

it('reads what was committed just before, and reports a bad query as an error', async () => {
  const p = newProject('offthread-fresh');
  const t = tableMethods({ db: file, sortCache: { fromOffset: 1, minRows: 10 } });
  const { digest } = await t.tableCreate({ table: { project_id: p, rows: ROWS.slice(0, 50) } }, ALICE);
  const page = await t.tableQuery({ project_id: p, digest, sort_by: [{ field: 'score', direction: 'desc' }], offset: 20, limit: 5 }, ALICE);
  expect(page.rows.map((r) => (r.val as { i: number }).i)).toEqual(
    [...ROWS.slice(0, 50)]
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(20, 25)
      .map((r) => r.i),
  );
  await expect(file.readLong({ sql: 'select * from no_such_table', parameters: [] })).rejects.toThrow(/no such table/);
});

it('sends a long answer back in batches, every row once and in order', async () => {
  // 60,000 rows of ~200 characters: about a dozen messages from the reader thread.
  const rows = await file.readLong<{ i: number; pad: string }>({
    sql: `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) select i, printf('%0200d', i) as pad from n`,
    parameters: [60_000],
  });
  expect(rows).toHaveLength(60_000);
  expect(rows.every((r, k) => r.i === k + 1 && r.pad.length === 200 && r.pad.endsWith(String(k + 1)))).toBe(true);
});
