// PostgreSQL through a pg Pool. Result parsing is adjusted so rows come back in the same JS shapes
// as from better-sqlite3 (numbers for counts and sums, datetimes as the text we stored).
import { Kysely, PostgresDialect, sql } from 'kysely';
import Cursor from 'pg-cursor';
import pg from 'pg';
import type { Db } from './db.ts';
import { timedQueries, type QueryTiming } from './query-timing.ts';
import type { LongRead } from './sqlite-reader.ts';
import { describePgTarget } from './database-url.ts';
import { raceDeadline } from './deadline.ts';
import { deadlinePool } from './pg-deadline-pool.ts';
import type { Database } from './schema.ts';

export interface PgPoolOptions {
  /** Pool size. Default: env `PGPOOL_MAX`, else 10. */
  max?: number;
  /**
   * Server-side statement timeout in ms (0 = none). Default: env `PG_STATEMENT_TIMEOUT_MS`, else
   * `defaultStatementTimeoutMs`, else none.
   */
  statementTimeoutMs?: number;
  /** The statement timeout when neither option nor variable sets one (the server: its request deadline). */
  defaultStatementTimeoutMs?: number;
  /** How long to wait for a connection, at startup and from the pool. Default 5000. */
  connectionTimeoutMs?: number;
  /** Idle connections are closed after this many ms. Default 10000. */
  idleTimeoutMs?: number;
}

interface OpenPostgresOptions {
  pool: PgPoolOptions;
  env: NodeJS.ProcessEnv;
  onPoolError: (err: Error) => void;
}

const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 } as const;

// Per pool, not pg's global registry, so other pg users in the process are unaffected.
const typeParsers = new pg.TypeOverrides();
// count(*), sum(integer) and bigint columns: pg's default is a string. Our values fit a double;
// one that does not fails loudly rather than silently losing digits.
typeParsers.setTypeParser(OID.INT8, 'text', (text: string) => {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`PostgreSQL bigint ${text} does not fit a JS number exactly`);
  return n;
});
// avg(), sum(bigint) and numeric casts: SQLite returns these as REAL, so a double here too.
typeParsers.setTypeParser(OID.NUMERIC, 'text', (text: string) => Number(text));
// Datetimes are stored as ISO text; should a timestamp type ever appear (now(), a cast), keep
// PostgreSQL's text instead of a local-time Date.
for (const oid of [OID.DATE, OID.TIMESTAMP, OID.TIMESTAMPTZ]) typeParsers.setTypeParser(oid, 'text', (text: string) => text);

export async function openPostgres(url: string, opts: OpenPostgresOptions): Promise<Db> {
  const target = describePgTarget(url, opts.env);
  const statementTimeoutMs =
    opts.pool.statementTimeoutMs ?? readIntEnv(opts.env, 'PG_STATEMENT_TIMEOUT_MS', { min: 0 }) ?? opts.pool.defaultStatementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.pool.max ?? readIntEnv(opts.env, 'PGPOOL_MAX', { min: 1 }) ?? 10,
    connectionTimeoutMillis: opts.pool.connectionTimeoutMs ?? 5000,
    idleTimeoutMillis: opts.pool.idleTimeoutMs ?? 10_000,
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    application_name: 'weft',
    types: typeParsers,
  });
  let closing: Promise<void> | undefined;
  // Once closing, a dropped idle socket is expected (e.g. a test dropping its database): not news.
  pool.on('error', (err) => {
    if (!closing) opts.onPoolError(err);
  });
  // pg-pool listens for the errors of idle clients only: while a client is checked out, an error
  // on it (the server restarting, pg_terminate_backend: 57P01) is emitted with no listener, which
  // ends the process. Its query fails by itself; the client is discarded when released
  // (pg-deadline-pool.ts), so all that is left here is to hear it.
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      if (!closing) opts.onPoolError(err);
    });
  });

  // Fail at startup, not on the first request, when the server is unreachable or rejects us.
  try {
    await pool.query('select 1');
  } catch (err) {
    await pool.end().catch(() => {});
    const where = `${target.host}:${target.port}, database "${target.database}"`;
    let reason = errorText(err);
    if (target.password) reason = reason.split(target.password).join('***');
    throw new Error(`Cannot connect to PostgreSQL at ${where}: ${reason}`, { cause: err });
  }

  const queryTiming: QueryTiming = { onQuery: undefined };
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: deadlinePool(pool) }), log: timedQueries(queryTiming) });
  return {
    kysely,
    dialect: 'postgres',
    queryTiming,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    readLong: <R>(query: LongRead) => readInBatches<R>(pool, query),
    close: () => (closing ??= kysely.destroy()),
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
  };
}

/**
 * Rows LONG_READ_BATCH at a time through a cursor. A whole table read in one result arrives as
 * fast as the server sends it, and pg parses what every socket read brings before the event
 * loop moves on: a sorted 50,000-row table held it for 100 ms. A batch is ~1 MB of rows, a round
 * trip apart.
 */
async function readInBatches<R>(pool: pg.Pool, query: LongRead): Promise<R[]> {
  const client = await raceDeadline(pool.connect(), 'waiting for a PostgreSQL connection', (late) => late.release());
  let failed: Error | undefined;
  try {
    const cursor = client.query(new Cursor<R>(query.sql, [...query.parameters], { types: typeParsers }));
    const rows: R[] = [];
    for (;;) {
      // Past the request's deadline the read stops; the connection is discarded below (its
      // cursor may still be answering).
      const batch = await raceDeadline(cursor.read(LONG_READ_BATCH), 'reading rows from PostgreSQL');
      for (const row of batch) rows.push(row);
      if (batch.length < LONG_READ_BATCH) break;
    }
    await cursor.close();
    return rows;
  } catch (err) {
    failed = err as Error;
    throw err;
  } finally {
    // A connection whose cursor failed is not given to the next request.
    client.release(failed);
  }
}

const LONG_READ_BATCH = 1000;

function readIntEnv(env: NodeJS.ProcessEnv, name: string, { min }: { min: number }): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return n;
}

// Node reports a refused connection to a name with several addresses as an AggregateError with
// an empty message; its parts say what happened.
function errorText(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) {
    return [...new Set(err.errors.map(errorText))].join('; ');
  }
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return err.message || (typeof code === 'string' ? code : err.name);
  }
  return String(err);
}
