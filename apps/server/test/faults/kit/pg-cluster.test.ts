// The throwaway PostgreSQL cluster and the backend helpers: the cluster runs with its settings,
// restarts both ways keeping committed rows, freezes and thaws, and goes away completely.
import { existsSync, readFileSync, statSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { holdAllConnections, listBackends, terminateBackends } from './pg-backends.ts';
import { createPgCluster, describeWithPgCluster, type PgCluster } from './pg-cluster.ts';
import { staysFalse, waitFor } from './wait-for.ts';

async function connected(url: string): Promise<pg.Client & { errors: Error[] }> {
  const client = Object.assign(new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 }), { errors: [] as Error[] });
  client.on('error', (err) => client.errors.push(err));
  await client.connect();
  return client;
}

/** Running: present in /proc and not a zombie (an exited process its new parent has not reaped yet). */
const running = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

describeWithPgCluster('throwaway PostgreSQL cluster', () => {
  let cluster: PgCluster;
  let url = '';
  beforeAll(async () => {
    cluster = await createPgCluster({ max_connections: 8, superuser_reserved_connections: 1 });
    url = await cluster.createDatabase('weft_fault');
    const c = await connected(url);
    await c.query('create table notes (id int primary key, body text)');
    await c.end();
  });
  afterAll(() => cluster?.destroy());

  it('runs with its settings on its own port, as the postgres OS user', async () => {
    const c = await connected(url);
    const show = async (name: string) => ((await c.query(`show ${name}`)).rows[0] as Record<string, string>)[name];
    expect(await show('max_connections')).toBe('8');
    expect(await show('fsync')).toBe('off');
    expect(await show('synchronous_commit')).toBe('on');
    expect(await show('listen_addresses')).toBe('127.0.0.1');
    expect(await show('port')).toBe(String(cluster.port));
    await c.end();
    if (process.getuid?.() === 0) expect(statSync(cluster.dir).uid).not.toBe(0);
  });

  it('restart("fast") and restart("immediate") end open connections and keep every committed row', async () => {
    for (const [i, mode] of [
      [1, 'fast'],
      [2, 'immediate'],
    ] as const) {
      const c = await connected(url);
      await c.query('insert into notes values ($1, $2)', [i, `before ${mode}`]);
      await cluster.restart(mode);
      await waitFor(() => c.errors.length > 0, { timeoutMs: 10_000, what: `the open connection to hear of the ${mode} stop` });
      if (mode === 'fast') expect(c.errors[0]).toMatchObject({ code: '57P01' });
      await c.end().catch(() => undefined);
    }
    const after = await connected(url);
    expect((await after.query('select id, body from notes order by id')).rows).toEqual([
      { id: 1, body: 'before fast' },
      { id: 2, body: 'before immediate' },
    ]);
    await after.end();
  });

  it('freeze() leaves connections open with nothing answering, new ones included; thaw() answers them', async () => {
    const open = await connected(url);
    cluster.freeze();
    expect(cluster.frozen).toBe(true);
    let answered = false;
    const pending = open.query<{ n: number }>('select 41 + 1 as n').then((r) => ((answered = true), r.rows));
    const late = new pg.Client({ connectionString: url });
    late.on('error', () => {});
    let lateConnected = false;
    const lateConnect = late.connect().then(() => (lateConnected = true));
    await staysFalse(() => answered || lateConnected, { forMs: 500, what: 'an answer from the frozen cluster' });
    cluster.thaw();
    expect(await pending).toEqual([{ n: 42 }]);
    await lateConnect;
    expect(open.errors).toEqual([]);
    await Promise.all([open.end(), late.end()]);
  });

  it("terminateBackends ends the chosen state's connections with 57P01", async () => {
    const idle = await connected(url);
    const busy = await connected(url);
    const busyQuery = busy.query('select pg_sleep(30)').catch((err: Error) => err);
    await waitFor(
      async () => (await listBackends(cluster.url(), { database: 'weft_fault', applicationName: '', states: ['active'] })).length === 1,
      {
        timeoutMs: 5000,
        what: 'the sleeping query to be active',
      },
    );
    const ended = await terminateBackends(cluster.url(), { database: 'weft_fault', applicationName: '', states: ['active'] });
    expect(ended).toHaveLength(1);
    expect(await busyQuery).toMatchObject({ code: '57P01' });
    expect(await terminateBackends(cluster.url(), { database: 'weft_fault', applicationName: '', states: ['idle'] })).toHaveLength(1);
    await waitFor(() => idle.errors.length > 0, { timeoutMs: 5000, what: 'the idle client to hear it' });
    expect(idle.errors[0]).toMatchObject({ code: '57P01' });
    await Promise.all([idle.end(), busy.end()].map((p) => p.catch(() => undefined)));
  });

  it('holdAllConnections takes every slot until released', async () => {
    const held = await holdAllConnections(url);
    expect(held.count).toBe(8);
    await expect(connected(url)).rejects.toMatchObject({ code: '53300' });
    await held.release();
    const c = await connected(url);
    await c.end();
  });

  it('destroy() stops every process and removes the directory', async () => {
    const other = await createPgCluster();
    const pids = [other.postmasterPid()!, ...other.childPids()];
    expect(pids.length).toBeGreaterThan(1);
    other.freeze(); // destroy must cope with a frozen cluster
    await other.destroy();
    expect(existsSync(other.dir)).toBe(false);
    expect(pids.filter(running)).toEqual([]);
  });
});
