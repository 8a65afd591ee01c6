// SQLite through better-sqlite3: a writer connection that Kysely serialises, a reader connection
// for single reads (sqlite-read-write-driver.ts), a reader thread for long ones (sqlite-reader.ts)
// and a checkpointer thread (sqlite-checkpointer.ts). An in-memory database exists on one
// connection only: it has just the writer.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, sql, SqliteAdapter, SqliteDialect, type DialectAdapter, type Driver, type SqliteDatabase } from 'kysely';
import { raceDeadline } from './deadline.ts';
import type { Db } from './db.ts';
import { timedQueries, type QueryTiming } from './query-timing.ts';
import type { Database } from './schema.ts';
import { ReadWriteSqliteDriver, type WriterCheckpoints } from './sqlite-read-write-driver.ts';
import { sqliteCheckpointer, type SqliteCheckpointer } from './sqlite-checkpointer.ts';
import { sqliteReader, type LongRead } from './sqlite-reader.ts';
import { withStatementCache, type CachedSqliteDatabase } from './statement-cache.ts';

// SQLite DDL is transactional, but Kysely's adapter says otherwise, which would make its Migrator
// run each migration outside a transaction: a failing migration would leave half a schema behind.
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class WeftSqliteDialect extends SqliteDialect {
  constructor(
    private readonly writer: CachedSqliteDatabase,
    private readonly reader: SqliteDatabase | undefined,
    private readonly checkpoints: WriterCheckpoints,
  ) {
    super({ database: writer });
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createDriver(): Driver {
    return new ReadWriteSqliteDriver(this.writer, this.reader, this.checkpoints);
  }
}

const OPTIMIZE_EVERY_MS = 60 * 60 * 1000;

/** `walBoundBytes`: the WAL's size at which writes pause for a checkpoint (sqlite-checkpointer.ts; tests set a small one). */
export async function openSqlite(path: string, walBoundBytes?: number): Promise<Db> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let sqlite: BetterSqlite3.Database;
  try {
    sqlite = new BetterSqlite3(path);
  } catch (err) {
    throw new Error(`Cannot open SQLite database at ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    // Wait up to 5 s for a lock held by another process (a backup, the sqlite3 CLI) instead of
    // failing at once with SQLITE_BUSY. Set first so the journal-mode switch below waits too.
    sqlite.pragma('busy_timeout = 5000');
    // WAL: readers do not block the writer. (An in-memory database reports "memory"; fine.)
    sqlite.pragma('journal_mode = WAL');
    // A write is acknowledged only once durable. In WAL mode synchronous=NORMAL skips the fsync
    // at commit, so a committed transaction can vanish on power loss; FULL fsyncs the WAL at
    // every commit.
    sqlite.pragma('synchronous = FULL');
    // SQLite ignores declared foreign keys unless asked, per connection.
    sqlite.pragma('foreign_keys = ON');
    // Statistics for the planner, as SQLite advises for long-lived connections: optimize with
    // 0x10002 at open, then now and then (below). Without them the planner took calls_started_idx
    // for an op plus time-range query (it believes `project_id = ?` leaves ~10 rows), reading in
    // proportion to the op's rarity; analysis_limit bounds each ANALYZE to ~1,000 rows per index,
    // so it stays short on a large file (BENCHMARKS.md §11).
    sqlite.pragma('analysis_limit = 1000');
    sqlite.pragma('optimize = 0x10002');
  } catch (err) {
    sqlite.close();
    throw new Error(`Cannot configure SQLite database at ${path}: ${(err as Error).message}`, { cause: err });
  }

  let readerConnection: SqliteDatabase | undefined;
  try {
    readerConnection = openReader(path);
  } catch (err) {
    sqlite.close();
    throw new Error(`Cannot open SQLite database at ${path} for reading: ${(err as Error).message}`, { cause: err });
  }
  const queryTiming: QueryTiming = { onQuery: undefined };
  let checkpointer: SqliteCheckpointer | undefined;
  const kysely = new Kysely<Database>({
    dialect: new WeftSqliteDialect(withStatementCache(sqlite), readerConnection, {
      committed: () => checkpointer?.committed(),
      walRoom: () => checkpointer?.walRoom(),
    }),
    log: timedQueries(queryTiming),
  });
  // An in-memory database exists only on this connection: its long reads stay here.
  const reader = path === ':memory:' ? undefined : sqliteReader(path);
  if (path !== ':memory:') {
    // Checkpoints off the main thread; if that thread stops, the writer checkpoints again.
    sqlite.pragma('wal_autocheckpoint = 0');
    checkpointer = sqliteCheckpointer(
      path,
      () => {
        if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
      },
      walBoundBytes,
    );
  }
  // Only tables whose size changed 25-fold since their last analysis are analyzed again.
  const optimizer = setInterval(() => {
    if (sqlite.open && !sqlite.inTransaction) sqlite.pragma('optimize');
  }, OPTIMIZE_EVERY_MS);
  optimizer.unref();
  let closing: Promise<void> | undefined;
  return {
    kysely,
    dialect: 'sqlite',
    queryTiming,
    // The reader thread's read runs to its end, but the request stops waiting at its deadline.
    readLong: async <R>(query: LongRead) =>
      reader
        ? raceDeadline(reader.read<R>(query), 'reading on the SQLite reader thread')
        : (await kysely.executeQuery<R>(CompiledQuery.raw(query.sql, [...query.parameters]))).rows,
    close: () => {
      clearInterval(optimizer);
      return (closing ??= Promise.all([reader?.close(), checkpointer?.close()]).then(() => kysely.destroy()));
    },
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
  };
}

/** The read-only connection for single reads, after the writer has set up the file (WAL). */
function openReader(path: string): SqliteDatabase | undefined {
  if (path === ':memory:') return undefined;
  const reader = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  return withStatementCache(reader);
}
