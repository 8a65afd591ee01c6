// A process with nothing to do but write (a seeding script, an import): back-to-back transactions
// past a small WAL bound, then the row count on stdout. Run by sqlite-wal-bound.test.ts.
import { openSqlite } from '../src/db/open-sqlite.ts';
import { createWalTable, rowCount, writeMegabyte } from './wal-writes.ts';

const [file = '', bound, writes] = process.argv.slice(2);
const db = await openSqlite(file, Number(bound));
await createWalTable(db);
for (let n = 0; n < Number(writes); n++) await writeMegabyte(db, String(n));
const stored = await rowCount(db);
await db.close();
process.stdout.write(`stored ${stored}\n`);
