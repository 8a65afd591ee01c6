// The SQLite threads' error paths: a reader thread that fails (its file gone, say) fails the reads
// waiting on it, not the process, and the next read starts a new thread; a checkpointer thread
// that stops says so, so the writer checkpoints by itself again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { sqliteCheckpointer } from '../src/db/sqlite-checkpointer.ts';
import { sqliteReader } from '../src/db/sqlite-reader.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-worker-failures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('fails the reads of a reader thread that cannot open its file, then reads with a new thread once it can', async () => {
  const path = join(dir, 'later.sqlite');
  const reader = sqliteReader(path);
  try {
    await expect(reader.read({ sql: 'select 1 as one', parameters: [] })).rejects.toThrow();
    const db = new BetterSqlite3(path);
    db.pragma('journal_mode = WAL');
    db.exec('create table t (x integer); insert into t values (7)');
    db.close();
    expect(await reader.read<{ x: number }>({ sql: 'select x from t', parameters: [] })).toEqual([{ x: 7 }]);
  } finally {
    await reader.close();
  }
});

it('says when its checkpointer thread stops, with the reason', async () => {
  const stopped = await new Promise<Error>((resolve) => {
    const checkpointer = sqliteCheckpointer(join(dir, 'missing.sqlite'), resolve);
    void checkpointer;
  });
  expect(stopped.message).toMatch(/SQLITE_CANTOPEN|unable to open/);
});
