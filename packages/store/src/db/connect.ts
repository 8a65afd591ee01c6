// Opens the store's database: SQLite (the default, one process) or PostgreSQL (production,
// several replicas). Everything above this file talks to both through the same Kysely instance.
import { parseDatabaseUrl } from './database-url.ts';
import type { Db } from './db.ts';
import { openPostgres, type PgPoolOptions } from './open-postgres.ts';
import { openSqlite } from './open-sqlite.ts';

export type { Db, Dialect } from './db.ts';

export interface OpenDatabaseOptions {
  /** Directory of the default SQLite file (`<dataDir>/weft.sqlite`). Default `./data`. */
  dataDir?: string;
  /** PostgreSQL pool settings; each overrides its environment variable. */
  pool?: PgPoolOptions;
  /** Environment for `PGPOOL_MAX` and `PG_STATEMENT_TIMEOUT_MS`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Called when an idle pooled PostgreSQL connection fails (e.g. the server restarted). The pool
   * drops that connection by itself; without a listener Node would crash on the 'error' event.
   * Default: a console.warn.
   */
  onPoolError?: (err: Error) => void;
}

/**
 * Accepted URLs: unset or blank → SQLite file `<dataDir ?? './data'>/weft.sqlite`;
 * `sqlite:PATH`; `sqlite::memory:`; `postgres://…` / `postgresql://…`.
 * PostgreSQL: fails fast (within the 5 s connect timeout) when the server is unreachable.
 */
export async function openDatabase(url: string | undefined, opts: OpenDatabaseOptions = {}): Promise<Db> {
  const target = parseDatabaseUrl(url, opts.dataDir);
  if (target.kind === 'sqlite') return openSqlite(target.path);
  return openPostgres(target.url, {
    pool: opts.pool ?? {},
    env: opts.env ?? process.env,
    onPoolError: opts.onPoolError ?? ((err) => console.warn(`[weft/store] idle PostgreSQL connection failed: ${err.message}`)),
  });
}
