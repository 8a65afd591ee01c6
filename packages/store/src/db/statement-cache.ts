// Kysely's SQLite driver prepares every statement it runs. Preparing (parsing and planning) was
// the largest single cost of a small read such as call/read (see BENCHMARKS.md), and the store runs the same few statements again and again: keep the most
// recently used ones. SQLite re-prepares a kept statement by itself after a schema change.
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const MAX_STATEMENTS = 256;
// Long texts are one-offs (IN lists of many digests, bulk inserts): not worth keeping.
const MAX_SQL_LENGTH = 8192;

/** A connection as Kysely uses it, and whether a transaction is open on it (SQLite ends one by itself on some errors). */
export interface CachedSqliteDatabase extends SqliteDatabase {
  readonly inTransaction: boolean;
}

export function withStatementCache(sqlite: BetterSqlite3.Database): CachedSqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    get inTransaction() {
      return sqlite.inTransaction;
    },
    prepare(sql: string): SqliteStatement {
      if (sql.length > MAX_SQL_LENGTH) return sqlite.prepare(sql);
      const kept = cache.get(sql);
      // A statement still iterating (a stream) cannot run again until it finishes.
      if (kept && !kept.busy) {
        cache.delete(sql); // most recently used last
        cache.set(sql, kept);
        return kept;
      }
      const stmt = sqlite.prepare(sql);
      if (!kept) {
        cache.set(sql, stmt);
        if (cache.size > MAX_STATEMENTS) cache.delete(cache.keys().next().value as string);
      }
      return stmt;
    },
  };
}
