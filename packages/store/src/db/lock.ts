// Serialises writers of one logical thing (e.g. the versions of one object) across server
// replicas, for the rest of the current transaction.
//
// PostgreSQL: a transaction-scoped advisory lock on a 64-bit hash of the key. It is released at
// commit or rollback, so a crashed request cannot leave it held. Two keys with the same hash only
// serialise each other needlessly; they never break correctness.
// SQLite: nothing to do. The store has one better-sqlite3 connection per process, through which
// Kysely runs one transaction at a time, and SQLite is single-process by design.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './connect.ts';
import type { Database } from './schema.ts';

/**
 * Waits until this transaction holds the lock named `key`. Call it first in the transaction:
 * on PostgreSQL (READ COMMITTED) every later statement then sees what the previous holder
 * committed.
 */
export async function lockKey(trx: Transaction<Database> | Kysely<Database>, dialect: Dialect, key: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
