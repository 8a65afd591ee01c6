// A process with nothing to do but write (a seeding script, an import): back-to-back transactions
// past a small WAL bound, then the row count on stdout. Run by sqlite-wal-bound.test.ts.
import { sql } from 'kysely';
import { openSqlite } from '../src/db/open-sqlite.ts';

const [file, bound, writes] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a))) as [string, number, number];
const db = await openSqlite(file, bound);
await sql`create table t (k text primary key, v text not null)`.execute(db.kysely);
for (let n = 0; n < writes; n++) {
  await db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < 10; i++) await sql`insert into t (k, v) values (${`${n}.${i}`}, ${'z'.repeat(100_000)})`.execute(trx);
  });
}
const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely);
await db.close();
process.stdout.write(`stored ${rows.rows[0]!.n}\n`);
