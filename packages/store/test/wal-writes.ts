// The writes of the WAL bound's tests (sqlite-wal-bound.test.ts and its fixture, a process of its
// own): one table, and transactions of 1 MB.
import { sql } from 'kysely';
import type { Db } from '../src/db/index.ts';

export async function createWalTable(db: Db): Promise<void> {
  await sql`create table t (k text primary key, v text not null)`.execute(db.kysely);
}

/** One transaction of ten 100 kB rows, keyed `<prefix>.<i>`. */
export function writeMegabyte(db: Db, prefix: string): Promise<void> {
  return db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < 10; i++) await sql`insert into t (k, v) values (${`${prefix}.${i}`}, ${'z'.repeat(100_000)})`.execute(trx);
  });
}

export async function rowCount(db: Db): Promise<number> {
  const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely);
  return Number(rows.rows[0]!.n);
}
