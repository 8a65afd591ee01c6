// What a database's refusal means for the client, decided once for both databases and applied
// around every store method (and by the server's error handler, for the few reads outside the
// store's methods): bad input is a 400/422; a database that cannot be used right now (refused,
// restarting, out of connections, timed out, locked by another process) is a 503 the client
// retries; a database with no room for a write is a 507. Anything else stays what it is (a bug:
// 500).
import { databaseUnavailable, insufficientStorage, invalidField, invalidRequest, isWeftError, type WeftError } from '@weft/core';

const UNSTORABLE_TEXT = new Set(['22P05', '22021']); // untranslatable_character, character_not_in_repertoire

/** PostgreSQL's SQLSTATEs of a database that cannot be used now, and what each means. */
const PG_UNAVAILABLE: Record<string, string> = {
  '57P01': 'PostgreSQL terminated the connection (a restart, a failover or pg_terminate_backend)',
  '57P02': 'PostgreSQL terminated the connection (another backend crashed)',
  '57P03': 'PostgreSQL is starting up or shutting down',
  '57P05': 'PostgreSQL closed an idle session',
  '57014': 'PostgreSQL cancelled the statement (statement_timeout, or the request deadline)',
  '55P03': 'PostgreSQL could not take a lock in time (lock_timeout)',
  '53300': 'PostgreSQL has no free connection slots (max_connections)',
  '53000': 'PostgreSQL is out of resources',
  '53200': 'PostgreSQL is out of memory',
  '53400': 'PostgreSQL reached a configuration limit',
  '40P01': 'PostgreSQL found a deadlock and cancelled this transaction',
  '40001': 'PostgreSQL could not serialize this transaction',
  '25006': 'PostgreSQL is read-only (a standby)',
  '3D000': 'the PostgreSQL database does not exist (dropped, or not created yet)',
  '28000': 'PostgreSQL refused the connection (pg_hba.conf)',
  '28P01': 'PostgreSQL refused the password',
};
/** No room for the write. */
const PG_NO_SPACE: Record<string, string> = { '53100': 'PostgreSQL has no room left on its disk' };

/** The socket to the database failed (Node's errno codes). */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// pg's own errors carry no code: a dead or closed connection, a pool that gave no connection in time.
const PG_CLIENT_FAILURE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Query read timeout|Connection ended)/;

/**
 * The catalogue error a database failure stands for, or undefined when it is none of the known
 * kinds (then it is a bug, and stays a 500).
 */
export function availabilityError(err: unknown): WeftError | undefined {
  if (err instanceof AggregateError) {
    // A host name with several addresses: Node reports each refusal inside one AggregateError.
    for (const inner of err.errors) {
      const found = availabilityError(inner);
      if (found) return found;
    }
    return undefined;
  }
  const code = (err as { code?: unknown } | null)?.code;
  const raw = (err as { message?: unknown } | null)?.message;
  const message = typeof raw === 'string' ? raw : '';
  if (typeof code === 'string') {
    if (code in PG_UNAVAILABLE) return databaseUnavailable(`The database is unavailable: ${PG_UNAVAILABLE[code]} (${code}); retry`);
    if (/^08/.test(code)) return databaseUnavailable(`The database is unavailable: the connection to PostgreSQL failed (${code}); retry`);
    if (code in PG_NO_SPACE) return insufficientStorage(`Nothing was stored: ${PG_NO_SPACE[code]} (${code})`);
    if (NETWORK.has(code)) return databaseUnavailable(`The database is unavailable: its connection failed (${code}); retry`);
    if (code === 'SQLITE_FULL') return insufficientStorage('Nothing was stored: the disk of the SQLite database is full (SQLITE_FULL)');
    if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY'))
      return insufficientStorage(`Nothing was stored: the SQLite database could not be written (${code})`);
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      return databaseUnavailable(
        `The database is unavailable: the SQLite file is locked by another connection or process (${code}); retry`,
      );
    if (code === 'SQLITE_NOMEM' || code === 'SQLITE_CANTOPEN')
      return databaseUnavailable(`The database is unavailable: SQLite could not go on (${code}); retry`);
  }
  if (PG_CLIENT_FAILURE.test(message)) return databaseUnavailable(`The database is unavailable: ${message}; retry`);
  return undefined;
}

/** The error a store method's caller gets for a database error (see the header). */
export function asClientError(err: unknown): unknown {
  if (isWeftError(err)) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const message = (err as { message?: unknown } | null)?.message;
  // calls_ended_after_started (migration 0003): PostgreSQL's check, SQLite's trigger.
  if (
    (code === '23514' && String((err as { constraint?: unknown }).constraint) === 'calls_ended_after_started') ||
    (code === 'SQLITE_CONSTRAINT_TRIGGER' && message === 'ended_at is before started_at')
  ) {
    return invalidField(['body', 'ended_at'], "ended_at is before the call's started_at", 'value_error');
  }
  if (typeof code === 'string' && UNSTORABLE_TEXT.has(code)) {
    return invalidRequest('A string contains a character that cannot be stored (U+0000 or an unpaired surrogate)');
  }
  const unavailable = availabilityError(err);
  if (unavailable) return Object.assign(unavailable, { cause: err });
  return err;
}

async function* translateIterable<T>(items: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* items;
  } catch (err) {
    throw asClientError(err);
  }
}

/** Wraps every method so database refusals become catalogue errors (see the header). */
export function translateDatabaseErrors<T extends object>(methods: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    if (typeof fn !== 'function') {
      out[name] = fn;
      continue;
    }
    out[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        result = (fn as (...a: unknown[]) => unknown).apply(methods, args);
      } catch (err) {
        throw asClientError(err);
      }
      if (result instanceof Promise) return result.catch((err: unknown) => Promise.reject(asClientError(err) as Error));
      if (result && typeof result === 'object' && Symbol.asyncIterator in result)
        return translateIterable(result as AsyncIterable<unknown>);
      return result;
    };
  }
  return out as T;
}
