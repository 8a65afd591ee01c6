// Write transactions that follow each other without a pause (a sustained ingest) leave SQLite no
// moment to start its WAL again: without the writer's pause for a checkpoint the WAL grew by every
// byte written. With it, the WAL stays near its bound, and nothing written is lost.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../src/db/index.ts';
import { openSqlite } from '../src/db/open-sqlite.ts';
import { createWalTable, rowCount, writeMegabyte } from './wal-writes.ts';

const BOUND = 4 << 20;
/** Transactions of 1 MB, one after the other. */
const WRITES = 200;
let dir: string;
let file: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-wal-'));
  file = join(dir, 'weft.sqlite');
  db = await openSqlite(file, BOUND);
  await createWalTable(db);
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const megabyte = (prefix: string) => writeMegabyte(db, prefix);

it('keeps the WAL near its bound under back-to-back write transactions; every row is stored', async () => {
  // The checkpointer is a thread that may start late on a busy machine: once the database file
  // grows, it is checkpointing.
  const initial = statSync(file).size;
  await megabyte('warm');
  for (let waited = 0; waited < 15_000 && statSync(file).size - initial < 900_000; waited += 100) await later(100);
  expect(statSync(file).size - initial).toBeGreaterThan(900_000);

  let largest = 0;
  for (let n = 0; n < WRITES; n++) {
    await megabyte(`row${n}`);
    largest = Math.max(largest, statSync(`${file}-wal`).size);
  }
  // Without the pause the WAL held every megabyte written. With it, it overshoots the bound by
  // what is written before the checkpointer's next look (it ticks every 50 ms, later when its
  // fsyncs are slow), then starts again from its beginning.
  expect(largest).toBeLessThan((WRITES << 20) / 2);
  expect(await rowCount(db)).toBe(10 * (WRITES + 1));
}, 120_000);

it('a process with nothing else to do stays alive while its write waits for the checkpoint', async () => {
  // The wait is on shared memory and the thread is unref'd: without something holding the process,
  // it exited in the middle of its writes with code 0 (the bench's seeding did, silently).
  const fixture = fileURLToPath(new URL('./sqlite-wal-bound.fixture.ts', import.meta.url));
  const run = await promisify(execFile)(
    process.execPath,
    ['--conditions=@weft/source', '--import', 'tsx', fixture, join(dir, 'alone.sqlite'), String(BOUND), '60'],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 90_000 },
  );
  expect(run.stdout.trim()).toBe('stored 600');
}, 120_000);
