// While migrations run at start the port is already open: /live and /health answer 200 (the
// process is alive: an orchestrator must not restart it), /ready answers 503 `migrations: running`
// (no traffic yet), and every other request 503 ServiceUnavailable with Retry-After, instead of a
// refused connection. The migrations are held here by the migration lock Kysely's Migrator takes
// on PostgreSQL, as another replica migrating would hold it.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { apiCall, type ApiOutcome } from './faults/kit/api-call.ts';
import { freePort } from './faults/kit/free-port.ts';
import { startServerProcess, type ServerProcess } from './faults/kit/server-process.ts';
import { waitFor } from './faults/kit/wait-for.ts';

/** Kysely's PostgreSQL migration lock (kysely/dist/esm/dialect/postgres/postgres-adapter.js). */
const MIGRATION_LOCK = '3853314791062309107';

const statusAndBody = (o: ApiOutcome) => (o.kind === 'answer' ? [o.status, JSON.parse(o.text) as unknown] : [o.code]);

describeIfPostgres('a replica starting while another migrates', () => {
  let db: { url: string; drop(): Promise<void> };
  let holder: pg.Client;
  let url: string;
  let starting: Promise<ServerProcess>;

  beforeAll(async () => {
    db = await createPgTestDatabase();
    holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK})`);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // Resolves once the server logs that it serves: not before the lock is let go.
    starting = startServerProcess({ env: { DATABASE_URL: db.url, PORT: String(port) } });
    starting.catch(() => undefined);
  }, 120_000);
  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await (await starting.catch(() => undefined))?.stop();
    await db?.drop();
  });

  it('answers on its port while migrations wait, says it is starting, and serves once they are done', async () => {
    const ready = await waitFor(
      async () => {
        const o = await apiCall(url, '/ready');
        return o.kind === 'answer' ? o : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'the port to answer while migrations wait' },
    );
    expect(statusAndBody(ready)).toEqual([
      503,
      { status: 'not_ready', database: 'ok', migrations: 'running', draining: false, reason: 'starting: applying database migrations' },
    ]);
    expect(statusAndBody(await apiCall(url, '/live'))).toEqual([200, { status: 'ok' }]);
    expect(statusAndBody(await apiCall(url, '/health'))).toEqual([200, { status: 'ok', database: 'ok' }]);
    const early = await apiCall(url, '/server_info');
    expect(statusAndBody(early)).toEqual([
      503,
      { reason: expect.stringContaining('starting') as string, error_type: 'ServiceUnavailable' },
    ]);
    expect(early.kind === 'answer' && early.headers.get('retry-after')).toBe('2');

    await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK})`);
    const server = await starting;
    expect(server.url).toBe(url);
    const served = await apiCall(url, '/objs/query', { project_id: 'acme/starting' }, { key: server.aliceKey });
    expect(statusAndBody(served)).toEqual([200, { objs: [] }]);
    expect(statusAndBody(await apiCall(url, '/ready'))).toEqual([200, expect.objectContaining({ status: 'ready' }) as unknown]);
  }, 120_000);
});
