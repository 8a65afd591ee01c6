// The database side of two faults: pg_terminate_backend on the server's own connections (the
// 57P01 path, on idle pool clients or on clients checked out mid-write), and max_connections
// taken by the test's own connections so the server cannot open one. The server's connections
// are told apart by their application_name (`weft`, set by packages/store's pool).
import pg from 'pg';

export interface Backend {
  pid: number;
  database: string;
  applicationName: string;
  /** pg_stat_activity.state: 'idle', 'active', 'idle in transaction', … */
  state: string | null;
}

export interface BackendFilter {
  database: string;
  applicationName?: string;
  /** Only backends in these states (idle pool clients: ['idle']; checked out: ['active', 'idle in transaction']). */
  states?: string[];
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const SELECT = `select pid, datname as database, application_name as "applicationName", state
  from pg_stat_activity
  where datname = $1 and ($2::text is null or application_name = $2) and ($3::text[] is null or state = any($3))
    and pid <> pg_backend_pid()`;

export function listBackends(adminUrl: string, filter: BackendFilter): Promise<Backend[]> {
  return withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<Backend>(SELECT, [filter.database, filter.applicationName ?? 'weft', filter.states ?? null]);
    return rows;
  });
}

/** pg_terminate_backend on every matching backend; answers the pids that were terminated. */
export function terminateBackends(adminUrl: string, filter: BackendFilter): Promise<number[]> {
  return withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ pid: number; done: boolean }>(
      `select pid, pg_terminate_backend(pid) as done from (${SELECT}) b`,
      [filter.database, filter.applicationName ?? 'weft', filter.states ?? null],
    );
    return rows.filter((r) => r.done).map((r) => r.pid);
  });
}

export interface HeldConnections {
  /** How many connections the test holds. */
  count: number;
  release(): Promise<void>;
}

/**
 * Opens connections to `url` until PostgreSQL refuses one for want of slots (53300), up to
 * `max`. As a superuser (the test clusters' `postgres`) they take the reserved slots as well, so
 * nobody can connect until release().
 */
export async function holdAllConnections(url: string, max = 500): Promise<HeldConnections> {
  const clients: pg.Client[] = [];
  const release = async () => {
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => undefined)));
  };
  try {
    while (clients.length < max) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, application_name: 'weft-fault-kit' });
      client.on('error', () => {});
      try {
        await client.connect();
      } catch (err) {
        await client.end().catch(() => undefined);
        if ((err as { code?: string }).code === '53300') break;
        throw err;
      }
      clients.push(client);
    }
  } catch (err) {
    await release();
    throw err;
  }
  return { count: clients.length, release };
}
