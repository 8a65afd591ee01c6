// The store's handle on its database, whichever it is. Its own file so the two openers
// (open-sqlite.ts, open-postgres.ts) name it without importing connect.ts, which imports them.
import type { Kysely } from 'kysely';
import type { LongRead } from './sqlite-reader.ts';
import type { PoolStats, QueryTiming } from './query-timing.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: Dialect;
  /** Closes the connection or pool. Safe to call more than once. */
  close(): Promise<void>;
  /** Round-trips `select 1`; rejects when the database is unusable. */
  ping(): Promise<void>;
  /**
   * A read that may take long (a sort over a whole table): on a SQLite file it runs on a worker
   * thread with its own read-only connection (sqlite-reader.ts), so the event loop stays free; on
   * PostgreSQL (and SQLite in memory) it is an ordinary query.
   */
  readLong<R>(query: LongRead): Promise<R[]>;
  /** Where each statement's duration goes (the server's metrics); nowhere until set. */
  readonly queryTiming: QueryTiming;
  /** The PostgreSQL pool's connections; undefined on SQLite (a fixed set of connections). */
  poolStats?(): PoolStats;
}
