// Graceful shutdown on SIGTERM, as a rolling deploy sends it: the replica stops accepting at once,
// a request in flight (a log upload still sending its body) completes with 200 and is stored, and
// the process exits 0. On both databases. A connection that never sent a byte does not hold the
// stop.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '@weft/client';
import { openDatabase } from '@weft/store';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { formatAuthFile, generateApiKey, hashApiKey } from '../src/auth/index.ts';
import { spawnServer, type ServerProcess } from './replicas/spawn-server.ts';
import { requestsInFlight } from './in-flight.ts';
import { startTestServer } from './test-server.ts';

const key = generateApiKey();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function exited(child: ServerProcess['child']): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function shutdownSuite(databaseUrl: (dir: string) => Promise<string>) {
  it('finishes a log upload in flight on SIGTERM, stores it, refuses new connections and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-shutdown-'));
    const authFile = join(dir, 'auth.yaml');
    writeFileSync(authFile, formatAuthFile({ users: [{ username: 'alice', entities: ['acme'], apiKeyHashes: [hashApiKey(key)] }] }));
    const url = await databaseUrl(dir);
    const server = await spawnServer({ DATABASE_URL: url, AUTH_FILE: authFile, DATA_DIR: dir, SHUTDOWN_TIMEOUT: '20s' });
    cleanups.push(() => server.stop());
    const api = createClient({ baseUrl: server.url, auth: { scheme: 'bearer', apiKey: key } });
    const model = await api.POST('/v1/preview/models', { body: { entity: 'acme', project: 'deploys', name: 'agent', base_model: 'b' } });

    const trajectories = Array.from({ length: 50 }, (_, i) => ({
      reward: i / 50,
      messages_and_choices: [{ role: 'user', content: `q${i}` }],
    }));
    const body = Buffer.from(JSON.stringify({ split: 'train', trajectory_groups: [{ trajectories }] }));
    const { hostname, port } = new URL(server.url);
    const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = request(
        {
          hostname,
          port,
          method: 'POST',
          path: `/v1/preview/models/${model.id}/log`,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, body.length >> 1));
      // Once the upload is in flight (its headers read; the scrape itself is the other request).
      void until(async () => (await requestsInFlight(server.url)) > 1, 'the upload to be in flight').then(() => {
        server.child.kill('SIGTERM');
        // The listening socket closes at once: a new connection is refused while the upload goes on.
        until(
          () =>
            fetch(`${server.url}/health`).then(
              () => false,
              () => true,
            ),
          'new connections to be refused',
        )
          .then(() => req.end(body.subarray(body.length >> 1)))
          .catch(reject);
      }, reject);
    });

    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ trajectory_count: 50 });
    expect(await exited(server.child)).toBe(0);

    const db = await openDatabase(url, { dataDir: dir });
    try {
      const rows = await db.kysely
        .selectFrom('trajectories')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(50);
    } finally {
      await db.close();
    }
  }, 60_000);
}

describe('graceful shutdown [sqlite]', () => shutdownSuite(async (dir) => `sqlite:${join(dir, 'weft.sqlite')}`));
describeIfPostgres('graceful shutdown [postgres]', () =>
  shutdownSuite(async () => {
    const pg = await createPgTestDatabase();
    cleanups.push(() => pg.drop());
    return pg.url;
  }),
);

describe('graceful shutdown with a connection that never sent a byte', () => {
  it('closes it at once instead of waiting for HEADERS_TIMEOUT', async () => {
    const server = await startTestServer('sqlite', { HEADERS_TIMEOUT: '20s' });
    const { port } = new URL(server.url);
    const silent = connect(Number(port), '127.0.0.1');
    silent.on('error', () => undefined);
    await new Promise((resolve) => silent.once('connect', resolve));
    const closedBy = new Promise<number>((resolve) => silent.once('close', () => resolve(Date.now())));
    const t0 = Date.now();
    await server.close();
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect((await closedBy) - t0).toBeLessThan(5_000);
  }, 60_000);
});
