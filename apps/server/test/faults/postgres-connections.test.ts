// PostgreSQL's connections fail under the server while it writes: pg_terminate_backend on its idle
// pool clients and on clients checked out mid-write (57P01, which ended the process when no
// listener heard it), then a TCP proxy between the server and PostgreSQL cut (refused, reset) and
// stalled (a frozen network or server: nothing answers). The process survives each, answers 503
// within the deadline meanwhile, serves again within 10 s by itself, and loses or doubles no
// acknowledged write.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgTestDatabase, describeIfPostgres, TEST_PG_URL } from '@weft/store/testing';
import {
  DEADLINE_MS,
  errorTypeOf,
  expectAnsweredWithinDeadline,
  expectLedgerIntact,
  expectRecovers,
  FAULT_ENV,
  SLACK_MS,
} from './fault-checks.ts';
import { terminateBackends } from './kit/pg-backends.ts';
import { startServerProcess, type ServerProcess } from './kit/server-process.ts';
import { startTcpProxy, throughProxy, type TcpProxy } from './kit/tcp-proxy.ts';
import { staysFalse, waitFor } from './kit/wait-for.ts';
import { WriteLedger } from './kit/write-ledger.ts';

describeIfPostgres('PostgreSQL connections fail under load', () => {
  let db: { url: string; drop(): Promise<void> };
  let proxy: TcpProxy;
  let server: ServerProcess;
  let database: string;

  beforeAll(async () => {
    db = await createPgTestDatabase();
    database = new URL(db.url).pathname.slice(1);
    const { hostname, port } = new URL(db.url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    server = await startServerProcess({ env: { ...FAULT_ENV, DATABASE_URL: throughProxy(db.url, proxy), PGPOOL_MAX: '6' } });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await db?.drop();
  });

  it('survives pg_terminate_backend of idle and of checked-out clients (57P01)', async () => {
    const ledger = new WriteLedger({ target: server, writers: 6, padBytes: 64 * 1024 });
    ledger.start();
    const killed = { idle: 0, busy: 0 };
    try {
      await waitFor(() => ledger.acknowledged().length >= 10, { timeoutMs: 30_000, what: 'writes before the fault' });
      // Until both kinds were hit a few times: the pool's idle clients, and clients in the middle
      // of a statement or a transaction.
      await waitFor(
        async () => {
          killed.busy += (await terminateBackends(TEST_PG_URL, { database, states: ['active', 'idle in transaction'] })).length;
          killed.idle += (await terminateBackends(TEST_PG_URL, { database, states: ['idle'] })).length;
          return killed.busy >= 3 && killed.idle >= 3;
        },
        { timeoutMs: 30_000, intervalMs: 50, what: 'idle and checked-out clients to be terminated' },
      );
    } finally {
      await ledger.stop();
    }
    expect(killed.busy).toBeGreaterThanOrEqual(3);
    expectAnsweredWithinDeadline(server, ledger, ['200', '503']);
    // The clients that held a terminated connection were told so.
    const refused = ledger.attempts.filter((a) => a.label === '503').length;
    expect(refused).toBeGreaterThan(0);
    await expectRecovers(server, ledger.projectId, 'pg_terminate_backend');
    await expectLedgerIntact(ledger);
  }, 120_000);

  it('answers 503 DatabaseUnavailable at once while PostgreSQL is cut off, and serves again once it is back', async () => {
    const ledger = new WriteLedger({ target: server, writers: 4 });
    ledger.start();
    try {
      await waitFor(() => ledger.acknowledged().length >= 5, { timeoutMs: 30_000, what: 'writes before the cut' });
      await proxy.cut();
      const during = await waitFor(
        async () => {
          const o = await server.call('/objs/query', { project_id: ledger.projectId, limit: 1 });
          return errorTypeOf(o) === 'DatabaseUnavailable' ? o : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 100, what: 'a 503 DatabaseUnavailable while cut off' },
      );
      expect(during.ms).toBeLessThan(DEADLINE_MS);
      expect(during.kind === 'answer' && during.headers.get('retry-after')).toBeTruthy();
      const health = await server.call('/health');
      expect(health.kind === 'answer' && [health.status, JSON.parse(health.text)]).toEqual([
        200,
        { status: 'degraded', database: 'unreachable' },
      ]);
      expect(await server.call('/ready')).toMatchObject({ status: 503 });
      await proxy.restore();
      await expectRecovers(server, ledger.projectId, 'the cut');
    } finally {
      await proxy.restore();
      await ledger.stop();
    }
    expectAnsweredWithinDeadline(server, ledger, ['200', '503']);
    await expectLedgerIntact(ledger);
  }, 120_000);

  it('answers within the deadline while PostgreSQL is stalled (a frozen network), then serves again', async () => {
    const ledger = new WriteLedger({ target: server, writers: 4 });
    ledger.start();
    try {
      await waitFor(() => ledger.acknowledged().length >= 5, { timeoutMs: 30_000, what: 'writes before the stall' });
      proxy.stall();
      const stalled = await server.call('/objs/query', { project_id: ledger.projectId, limit: 1 });
      expect(errorTypeOf(stalled)).toMatch(/^(DeadlineExceeded|DatabaseUnavailable)$/);
      expect(stalled.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
      // A read without a limit goes through a cursor, a batch at a time: held to the deadline too.
      const whole = await server.call('/objs/query', { project_id: ledger.projectId });
      expect(errorTypeOf(whole)).toMatch(/^(DeadlineExceeded|DatabaseUnavailable)$/);
      expect(whole.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
      // Liveness never waits for the database; health waits 1 s for it at most.
      const live = await server.call('/live');
      expect(live).toMatchObject({ kind: 'answer', status: 200 });
      expect(live.ms).toBeLessThan(1000);
      const health = await server.call('/health');
      expect(health.kind === 'answer' && [health.status, JSON.parse(health.text)]).toEqual([
        200,
        { status: 'degraded', database: 'unreachable' },
      ]);
      expect(health.ms).toBeLessThan(1000 + SLACK_MS);
      // Stalled long enough for every writer to meet the deadline at least once.
      await staysFalse(() => !server.alive(), { forMs: DEADLINE_MS * 2, what: 'the server to exit while stalled' });
      await proxy.restore();
      await expectRecovers(server, ledger.projectId, 'the stall');
    } finally {
      await proxy.restore();
      await ledger.stop();
    }
    expect(ledger.attempts.some((a) => a.label === '503')).toBe(true);
    expectAnsweredWithinDeadline(server, ledger, ['200', '503']);
    await expectLedgerIntact(ledger);
  }, 120_000);
});
