// A SQLite file has a writer connection, a reader connection for single reads and a checkpointer
// thread. Reads outside a transaction never wait for a write transaction, and see exactly what is
// committed; writes take turns; the WAL is checkpointed off the main thread.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/index.ts';

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-rw-'));
  db = await openDatabase(`sqlite:${join(dir, 'weft.sqlite')}`);
  await sql`create table t (k text primary key, v text not null)`.execute(db.kysely);
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = async () => Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely)).rows[0]!.n);
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('answers reads while a write transaction is open, with the last commit only', async () => {
  await sql`insert into t (k, v) values ('a', '1')`.execute(db.kysely);
  // Read-your-writes: the commit above is visible to the next read at once.
  expect(await count()).toBe(1);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const insertedInside = new Promise<void>((resolve) => (inserted = resolve));
  const transaction = db.kysely.transaction().execute(async (trx) => {
    await sql`insert into t (k, v) values ('b', '2')`.execute(trx);
    // Inside, the transaction sees its own write.
    expect(Number((await sql<{ n: number }>`select count(*) as n from t`.execute(trx)).rows[0]!.n)).toBe(2);
    inserted();
    await held;
  });
  await insertedInside;
  // Outside, during it: an answer at once, without the uncommitted row; /health's ping too.
  expect(await count()).toBe(1);
  await db.ping();
  // A write outside waits for its turn.
  let outsideWrote = false;
  const outside = sql`insert into t (k, v) values ('c', '3')`.execute(db.kysely).then(() => (outsideWrote = true));
  // A fixed wait on purpose: what is checked is that nothing happens during it (the write stays
  // queued while the transaction holds the writer); no event marks "still waiting".
  await later(50);
  expect(outsideWrote).toBe(false);
  release();
  await transaction;
  await outside;
  expect(await count()).toBe(3);
});

it('runs pragmas on the writer, which checkpoints nothing by itself', async () => {
  const pragma = async (text: string) => (await sql.raw(text).execute(db.kysely)).rows[0] as Record<string, number>;
  // The reader connection never turned foreign keys on: this is the writer's answer.
  expect(await pragma('pragma foreign_keys')).toEqual({ foreign_keys: 1 });
  expect(await pragma('pragma wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 0 });
});

it('checkpoints the WAL off the main thread', async () => {
  const file = join(dir, 'weft.sqlite');
  const before = statSync(file).size;
  // 8 MB in one transaction: more than the checkpointer's threshold.
  await db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < 80; i++) await sql`insert into t (k, v) values (${`big${i}`}, ${'x'.repeat(100_000)})`.execute(trx);
  });
  // Without a checkpoint the rows would stay in the WAL and the database file would not grow. The
  // checkpointer is a thread that loads its own driver: on a busy machine (CI runs every package's
  // tests at once) it can start seconds late, so the wait is as long as the next test's.
  let grown = 0;
  for (let waited = 0; waited < 15_000 && grown < 8_000_000; waited += 100) {
    await later(100);
    grown = statSync(file).size - before;
  }
  expect(grown).toBeGreaterThan(8_000_000);
  expect(await count()).toBe(83);
});

it('checkpoints a WAL that was rewound and rewritten to the same size', async () => {
  const file = join(dir, 'weft.sqlite');
  const wal = `${file}-wal`;
  // A checkpointed WAL is rewound: the next transaction writes from its start, and one no larger
  // than the last leaves the file's size as it was. Its rows must still reach the database file.
  const big = async (prefix: string, n: number) =>
    db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < n; i++) await sql`insert into t (k, v) values (${`${prefix}${i}`}, ${'y'.repeat(100_000)})`.execute(trx);
    });
  // Until the database file has grown by at least `bytes` and then stopped growing: the
  // checkpointer has copied the transaction (it runs on its own thread, so on a busy machine it may
  // start late: waiting only for the size to stop changing once measured nothing, CI saw it).
  const settle = async (from: number, bytes: number) => {
    let last = -1;
    for (let waited = 0; waited < 15_000; waited += 300) {
      await later(300);
      const size = statSync(file).size;
      if (size - from >= bytes && size === last) return size;
      last = size;
    }
    return last;
  };
  const initial = statSync(file).size;
  await big('first', 60);
  const afterFirst = await settle(initial, 5_500_000);
  const walSize = statSync(wal).size;
  await big('second', 40);
  expect(statSync(wal).size).toBe(walSize);
  const afterSecond = await settle(afterFirst, 3_500_000);
  expect(afterSecond - afterFirst).toBeGreaterThan(3_500_000);
});
