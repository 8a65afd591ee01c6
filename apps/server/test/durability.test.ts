// Nothing acknowledged is lost: writers run against a server process that is killed with SIGKILL
// mid-traffic, several times; after each restart every write that was answered 200 is read back
// exactly. On both databases (SQLite runs with synchronous=FULL, PostgreSQL commits before answering).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, type WeftClient } from '@weft/client';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { formatAuthFile, generateApiKey, hashApiKey } from '../src/auth/index.ts';
import { spawnServer, type ServerProcess } from './replicas/spawn-server.ts';

const KILLS = 3;
const key = generateApiKey();
const project_id = 'acme/durable';

interface Acked {
  objects: Array<{ object_id: string; digest: string; val: unknown }>;
  calls: Array<{ id: string; ended: boolean }>;
  tables: Array<{ digest: string; rows: number }>;
}

/** Writes until the server dies; records what was acknowledged. */
async function write(client: WeftClient, round: number, acked: Acked): Promise<void> {
  const writers = Array.from({ length: 6 }, async (_, w) => {
    for (let i = 0; ; i++) {
      try {
        const kind = (w + i) % 3;
        if (kind === 0) {
          const val = { round, w, i, text: 'é'.repeat(i % 50) };
          const object_id = `o-${w}`;
          const { digest } = await client.POST('/obj/create', { body: { obj: { project_id, object_id, val } } });
          acked.objects.push({ object_id, digest, val });
        } else if (kind === 1) {
          const { id } = await client.POST('/call/start', {
            body: {
              start: { project_id, op_name: 'durable', started_at: new Date().toISOString(), attributes: {}, inputs: { round, w, i } },
            },
          });
          acked.calls.push({ id, ended: false });
          await client.POST('/call/end', { body: { end: { project_id, id, ended_at: new Date().toISOString(), summary: {}, output: i } } });
          acked.calls.find((c) => c.id === id)!.ended = true;
        } else {
          const rows = Array.from({ length: 1 + (i % 20) }, (_, r) => ({ round, w, i, r }));
          const { digest } = await client.POST('/table/create', { body: { table: { project_id, rows } } });
          acked.tables.push({ digest, rows: rows.length });
        }
      } catch {
        return; // the server is gone
      }
    }
  });
  await Promise.all(writers);
}

/** Runs `check` over `items`, 16 at a time. */
async function each<T>(items: T[], check: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 16) await Promise.all(items.slice(i, i + 16).map(check));
}

async function verify(client: WeftClient, acked: Acked): Promise<void> {
  await each(acked.objects, async (o) => {
    const { obj } = await client.POST('/obj/read', { body: { project_id, object_id: o.object_id, digest: o.digest } });
    expect(obj.val).toEqual(o.val);
  });
  await each(acked.calls, async (c) => {
    const { call } = await client.POST('/call/read', { body: { project_id, id: c.id } });
    if (c.ended) expect(typeof call.ended_at).toBe('string');
  });
  await each(acked.tables, async (t) => {
    const { rows } = await client.POST('/table/query', { body: { project_id, digest: t.digest } });
    expect(rows).toHaveLength(t.rows);
  });
}

function durabilitySuite(databaseUrl: (dir: string) => Promise<string>) {
  it(`keeps every acknowledged write through ${KILLS} kill -9`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-durable-'));
    const authFile = join(dir, 'auth.yaml');
    writeFileSync(authFile, formatAuthFile({ users: [{ username: 'alice', entities: ['acme'], apiKeyHashes: [hashApiKey(key)] }] }));
    const env = { DATABASE_URL: await databaseUrl(dir), AUTH_FILE: authFile, DATA_DIR: dir };
    const acked: Acked = { objects: [], calls: [], tables: [] };
    let server: ServerProcess | undefined;
    try {
      for (let round = 0; round < KILLS; round++) {
        server = await spawnServer(env);
        const client = createClient({ baseUrl: server.url, auth: { scheme: 'basic', apiKey: key } });
        const writing = write(client, round, acked);
        // Killed mid-traffic: once writes of this round are being acknowledged, later rounds further in.
        const total = () => acked.objects.length + acked.calls.length + acked.tables.length;
        const target = total() + 20 + 20 * round;
        await expect.poll(total, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(target);
        server.child.kill('SIGKILL');
        await writing;
        // A process killed by a signal has a signalCode, not an exitCode.
        const child = server.child;
        await new Promise<void>((resolve) =>
          child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
        );
      }
      server = await spawnServer(env);
      await verify(createClient({ baseUrl: server.url, auth: { scheme: 'basic', apiKey: key } }), acked);
      // The test must have exercised real traffic.
      const total = acked.objects.length + acked.calls.length + acked.tables.length;
      expect(total).toBeGreaterThan(30);
      console.info(`durability: ${total} acknowledged writes verified after ${KILLS} kill -9`);
    } finally {
      await server?.stop();
    }
  }, 240_000);
}

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

describe('durability [sqlite]', () => durabilitySuite(async (dir) => `sqlite:${join(dir, 'weft.sqlite')}`));
describeIfPostgres('durability [postgres]', () =>
  durabilitySuite(async () => {
    const pg = await createPgTestDatabase();
    drops.push(() => pg.drop());
    return pg.url;
  }),
);
