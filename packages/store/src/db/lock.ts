// Serialises writers of one logical thing (e.g. the versions of one object) across server
// replicas, for the rest of the current transaction.
//
// PostgreSQL: a transaction-scoped advisory lock on a 64-bit hash of the key. It is released at
// commit or rollback, so a crashed request cannot leave it held. Two keys with the same hash only
// serialise each other needlessly; they never break correctness.
// SQLite: nothing to do. The store has one better-sqlite3 connection per process, through which
// Kysely runs one transaction at a time, and SQLite is single-process by design.
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type { Db, Dialect } from './db.ts';
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

/**
 * `q` locking the rows it reads for the rest of the transaction (FOR UPDATE on PostgreSQL), for
 * a read-modify-write that another transaction must not interleave with. SQLite: `q` as it is
 * (it has no FOR UPDATE, and its transactions run one at a time).
 */
export function lockRowsForUpdate<Q extends { forUpdate(): Q }>(dialect: Dialect, q: Q): Q {
  return dialect === 'postgres' ? q.forUpdate() : q;
}

/**
 * Runs `fn` unless another process is already running work under `key`, and answers undefined
 * then, without waiting: background work that one replica at a time should do (the retention
 * sweep). PostgreSQL: a session advisory lock on one pooled connection, kept for the duration and
 * handed to `fn` to do all its work on (so it holds one connection whatever the pool's size, and a
 * replica that dies releases the lock with its connection). SQLite: `fn` runs on the store's
 * Kysely (one process per file; the caller keeps its own runs from overlapping).
 */
export async function tryExclusive<T>(
  db: { kysely: Kysely<Database>; dialect: Dialect },
  key: string,
  fn: (kysely: Kysely<Database>) => Promise<T>,
): Promise<T | undefined> {
  if (db.dialect !== 'postgres') return fn(db.kysely);
  return db.kysely.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtextextended(${key}, 0)) as locked`.execute(conn);
    if (rows[0]?.locked !== true) return undefined;
    try {
      return await fn(conn);
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
    }
  });
}

/**
 * `db` doing all its work, long reads included, on the `kysely` tryExclusive handed to `fn`:
 * on PostgreSQL that is the connection holding the lock. SQLite: `db` itself (tryExclusive hands
 * over the store's own Kysely, and long reads keep their reader thread).
 */
export function onExclusiveConnection(db: Db, kysely: Kysely<Database>): Db {
  if (db.dialect !== 'postgres') return db;
  const readLong = async <R>(query: { sql: string; parameters: readonly unknown[] }): Promise<R[]> =>
    (await kysely.executeQuery<R>(CompiledQuery.raw(query.sql, [...query.parameters]))).rows;
  return { ...db, kysely, readLong };
}
