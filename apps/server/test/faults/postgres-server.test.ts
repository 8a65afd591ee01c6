// The PostgreSQL server itself fails under Weft, on a cluster of the test's own (initdb into a
// temporary directory, its own port): restarted with `-m fast` and with `-m immediate` while
// writes go on, frozen (SIGSTOP of every process: connections stay open, nothing answers), and out
// of connection slots (max_connections taken by the test's own connections). Each time the process
// survives, answers 503 within the deadline meanwhile, serves again within 10 s by itself, and
// every acknowledged write reads back identical, none twice.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DEADLINE_MS,
  errorTypeOf,
  expectAnsweredWithinDeadline,
  expectLedgerIntact,
  expectRecovers,
  FAULT_ENV,
  SLACK_MS,
} from './fault-checks.ts';
import pg from 'pg';
import { holdAllConnections } from './kit/pg-backends.ts';
import { createPgCluster, describeWithPgCluster, type PgCluster } from './kit/pg-cluster.ts';
import { startServerProcess, type ServerProcess } from './kit/server-process.ts';
import { waitFor } from './kit/wait-for.ts';
import { WriteLedger } from './kit/write-ledger.ts';

describeWithPgCluster('a PostgreSQL server of the test’s own fails under load', () => {
  let cluster: PgCluster;
  let server: ServerProcess;

  beforeAll(async () => {
    cluster = await createPgCluster({ max_connections: 20, superuser_reserved_connections: 3 });
    const url = await cluster.createDatabase('weft');
    server = await startServerProcess({ env: { ...FAULT_ENV, DATABASE_URL: url, PGPOOL_MAX: '6' } });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await cluster?.destroy();
  });

  /** Writes go on while `fault` runs; then the common checks. */
  async function underLoad(what: string, fault: (ledger: WriteLedger) => Promise<void>): Promise<WriteLedger> {
    const ledger = new WriteLedger({ target: server, writers: 4, padBytes: 16 * 1024 });
    ledger.start();
    try {
      await waitFor(() => ledger.acknowledged().length >= 8, { timeoutMs: 30_000, what: `writes before ${what}` });
      await fault(ledger);
      await expectRecovers(server, ledger.projectId, what);
    } finally {
      await ledger.stop();
    }
    expectAnsweredWithinDeadline(server, ledger, ['200', '503']);
    await expectLedgerIntact(ledger);
    return ledger;
  }

  for (const mode of ['fast', 'immediate'] as const) {
    it(`survives pg_ctl restart -m ${mode} under load`, async () => {
      await underLoad(`restart -m ${mode}`, () => cluster.restart(mode));
    }, 120_000);
  }

  it('answers 503 within the deadline while PostgreSQL is frozen, and /live and /health at once', async () => {
    await underLoad('the freeze', async (ledger) => {
      cluster.freeze();
      try {
        const read = await server.call('/objs/query', { project_id: ledger.projectId, limit: 1 });
        expect(errorTypeOf(read)).toMatch(/^(DeadlineExceeded|DatabaseUnavailable)$/);
        expect(read.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
        expect(await server.call('/live')).toMatchObject({ status: 200 });
        const health = await server.call('/health');
        expect(health).toMatchObject({ status: 200 });
        expect(health.ms).toBeLessThan(1000 + SLACK_MS);
        // Frozen long enough for every writer to meet the deadline.
        await waitFor(() => ledger.attempts.filter((a) => a.label === '503').length >= 4, {
          timeoutMs: DEADLINE_MS * 4,
          what: 'writers to be answered 503 while frozen',
        });
      } finally {
        cluster.thaw();
      }
    });
  }, 120_000);

  it('answers 503 naming max_connections while every slot is taken, then serves again', async () => {
    let reason = '';
    await underLoad('max_connections', async (ledger) => {
      // One connection of the test's own first, then every other slot. Through the first, the
      // server's connections are ended, and the slots they free taken too, until the server
      // holds none: it has to open new ones and finds no slot.
      const admin = new pg.Client({ connectionString: cluster.url('postgres') });
      admin.on('error', () => undefined);
      await admin.connect();
      const held = [await holdAllConnections(cluster.url('weft'))];
      try {
        await waitFor(
          async () => {
            const { rows } = await admin.query<{ pid: number }>(
              "select pg_terminate_backend(pid), pid from pg_stat_activity where datname = 'weft' and application_name = 'weft'",
            );
            held.push(await holdAllConnections(cluster.url('weft')));
            return rows.length === 0;
          },
          { timeoutMs: 15_000, intervalMs: 50, what: 'the server to hold no connection' },
        );
        // Requests that held an ended connection are told 57P01; the next ones find no slot.
        reason = await waitFor(
          async () => {
            const o = await server.call('/objs/query', { project_id: ledger.projectId, limit: 1 });
            const why = o.kind === 'answer' && o.status === 503 ? (JSON.parse(o.text) as { reason: string }).reason : '';
            return /53300/.test(why) ? why : undefined;
          },
          { timeoutMs: 15_000, intervalMs: 100, what: 'a 503 naming the missing connection slots' },
        );
      } finally {
        await Promise.all(held.map((h) => h.release()));
        await admin.end();
      }
    });
    expect(reason).toMatch(/no free connection slots \(max_connections\) \(53300\)/);
  }, 120_000);
});
