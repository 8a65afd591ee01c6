// Kysely's SQLite driver prepares every statement it runs. Preparing (parsing and planning) was
// the largest single cost of a small read such as call/read (see BENCHMARKS.md), and the store runs the same few statements again and again: keep the most
// recently used ones. SQLite re-prepares a kept statement by itself after a schema change.
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const MAX_STATEMENTS = 256;
// Long texts are mostly one-offs (IN lists of many digests): one is kept only once it is seen a
// second time (a bulk insert's statement of a power-of-two count of rows, which a table/create
// runs a hundred times), and none past MAX_KEPT_SQL_LENGTH.
const MAX_SQL_LENGTH = 8192;
const MAX_KEPT_SQL_LENGTH = 128 * 1024;
/** Long texts remembered as seen once. */
const MAX_SEEN_LONG = 16;

/** A connection as Kysely uses it, and whether a transaction is open on it (SQLite ends one by itself on some errors). */
export interface CachedSqliteDatabase extends SqliteDatabase {
  readonly inTransaction: boolean;
}

export function withStatementCache(sqlite: BetterSqlite3.Database): CachedSqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const seenLong = new Set<string>();
  /** Whether a statement of this text is worth keeping (see MAX_SQL_LENGTH). */
  const keeps = (sql: string): boolean => {
    if (sql.length <= MAX_SQL_LENGTH || cache.has(sql)) return true;
    if (sql.length > MAX_KEPT_SQL_LENGTH) return false;
    if (seenLong.delete(sql)) return true;
    seenLong.add(sql);
    if (seenLong.size > MAX_SEEN_LONG) seenLong.delete(seenLong.values().next().value as string);
    return false;
  };
  return {
    close: () => sqlite.close(),
    get inTransaction() {
      return sqlite.inTransaction;
    },
    prepare(sql: string): SqliteStatement {
      if (!keeps(sql)) return sqlite.prepare(sql);
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
