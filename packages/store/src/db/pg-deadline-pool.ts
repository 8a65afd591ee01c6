// The pg pool as Kysely sees it, held to the request's deadline (deadline.ts): waiting for a
// connection and every statement end when the request runs out of time. A statement still running
// then is cancelled (PostgreSQL's cancel request, on a connection of its own) and its connection
// is closed and never handed out again: after a client-side timeout, pg's connection is in an
// unknown state (its answer may still come), and a frozen server would never answer at all.
//
// It also keeps a dead connection from reaching the next request: any connection-level failure
// marks the client, and release gives it back with that error, so the pool discards it.
import pg from 'pg';
import { currentDeadline, deadlineError, raceDeadline } from './deadline.ts';
import { availabilityError } from '../database-errors.ts';

/** What Kysely's PostgresDialect needs of a pool and its clients. */
interface KyselyPool {
  connect(): Promise<KyselyClient>;
  end(): Promise<void>;
}
interface KyselyClient {
  query(sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult>;
  query<T extends pg.Submittable>(submittable: T): T;
  release(): void;
}

// pg's internals read here: the protocol connection (its socket, the cancel key) of a client.
interface ClientInternals {
  connection: { stream: { destroy(): void } };
  processID: number | null;
  secretKey: number | null;
  host: string;
  port: number;
  ssl: unknown;
}

/** Kysely's rollback of a transaction, and what a rollback on a dead connection answers instead. */
const ROLLBACK = /^\s*rollback\s*$/i;
const NOTHING = { rows: [] } as unknown as pg.QueryResult;

/** How long a cancel request may take to be sent before it is given up. */
const CANCEL_TIMEOUT_MS = 2000;

export function deadlinePool(pool: pg.Pool): KyselyPool {
  const wrappers = new WeakMap<pg.PoolClient, KyselyClient>();
  return {
    async connect() {
      const client = await raceDeadline(pool.connect(), 'waiting for a PostgreSQL connection', (late) => late.release());
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = deadlineClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

function deadlineClient(client: pg.PoolClient): KyselyClient {
  // Why this client must not be reused; reset when it is handed out again (it never is, once set).
  let broken: Error | undefined;
  const statement = (sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult> => {
    const deadline = currentDeadline();
    if (!deadline) return client.query(sql, parameters as unknown[]);
    const left = deadline.at - Date.now();
    if (left <= 0) return Promise.reject(deadlineError(deadline, 'sending a statement to PostgreSQL'));
    return new Promise<pg.QueryResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        broken = deadlineError(deadline, 'waiting for PostgreSQL to answer a statement');
        cancelAndClose(client);
        reject(broken);
      }, left);
      client.query(sql, parameters as unknown[]).then(
        (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        (err: Error) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  };
  return {
    query: ((sqlOrSubmittable: string | pg.Submittable, parameters?: readonly unknown[]) => {
      if (typeof sqlOrSubmittable !== 'string') return client.query(sqlOrSubmittable);
      if (broken) {
        // A rollback after the connection failed: the server ends the transaction with the
        // session, and an error here would replace the statement's own in the log.
        if (ROLLBACK.test(sqlOrSubmittable)) return Promise.resolve(NOTHING);
        return Promise.reject(broken);
      }
      return statement(sqlOrSubmittable, parameters ?? []).catch((err: unknown) => {
        if (!broken && availabilityError(err)) broken = err as Error;
        if (broken && ROLLBACK.test(sqlOrSubmittable)) return NOTHING;
        throw err;
      });
    }) as KyselyClient['query'],
    release() {
      const reason = broken;
      broken = undefined;
      // With an error, pg-pool closes the client instead of keeping it idle.
      client.release(reason);
    },
  };
}

/** Asks PostgreSQL to cancel what the client's session runs, then closes the client's socket. */
function cancelAndClose(client: pg.PoolClient): void {
  const c = client as unknown as ClientInternals;
  if (c.processID !== null && c.secretKey !== null) sendCancel(c, c.processID, c.secretKey);
  c.connection.stream.destroy();
}

/**
 * PostgreSQL's cancel request, as pg sends it (Client#cancel), with an error listener and a time
 * limit of its own: pg's own leaves the connection's errors unheard, which would end the process
 * when the server is unreachable. A failed cancel changes nothing: the closed socket ends the
 * session when the server next looks at it, and statement_timeout bounds the statement meanwhile.
 */
function sendCancel(c: ClientInternals, processID: number, secretKey: number): void {
  type CancelConnection = pg.Connection & {
    stream: { destroy(): void };
    connect(portOrPath: number | string, host?: string): void;
    requestSsl(): void;
    cancel(pid: number, key: number): void;
  };
  const con = new pg.Connection({ ssl: c.ssl } as pg.ConnectionConfig) as CancelConnection;
  const giveUp = setTimeout(() => con.stream.destroy(), CANCEL_TIMEOUT_MS);
  giveUp.unref();
  con.on('error', () => undefined);
  con.on('end', () => clearTimeout(giveUp));
  con.once(c.ssl ? 'sslconnect' : 'connect', () => con.cancel(processID, secretKey));
  if (c.ssl) con.once('connect', () => con.requestSsl());
  if (c.host.startsWith('/')) con.connect(`${c.host}/.s.PGSQL.${c.port}`);
  else con.connect(c.port, c.host);
}
