// Rate limits per API key: off by default, 429 with Retry-After and the documented body past the
// limit, ingest and query counted apart, and one budget shared by two replicas through Redis.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { formatAuthFile, generateApiKey, hashApiKey } from '../src/auth/index.ts';
import { parseRateLimit } from '../src/http/rate-limit.ts';
import { spawnServer, type ServerProcess } from './replicas/spawn-server.ts';
import { describeEachDatabase } from './test-server.ts';

const basic = (key: string) => ({
  authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}`,
  'content-type': 'application/json',
});
const query = (url: string, key: string) =>
  fetch(`${url}/objs/query`, { method: 'POST', headers: basic(key), body: '{"project_id":"acme/limits"}' });
const ingest = (url: string, key: string, i: number) =>
  fetch(`${url}/obj/create`, {
    method: 'POST',
    headers: basic(key),
    body: JSON.stringify({ obj: { project_id: 'acme/limits', object_id: `o${i}`, val: i } }),
  });

describe('parseRateLimit', () => {
  it('reads points per second, minute or hour and refuses the rest', () => {
    expect(parseRateLimit('100/s')).toEqual({ points: 100, durationSec: 1 });
    expect(parseRateLimit('6000/m')).toEqual({ points: 6000, durationSec: 60 });
    expect(parseRateLimit(' 5 / h ')).toEqual({ points: 5, durationSec: 3600 });
    for (const bad of ['', '0/s', '10', '10/d', '-1/s', '1.5/s']) expect(parseRateLimit(bad), bad).toBeUndefined();
  });
});

describeEachDatabase(
  'rate limits in one process',
  (getServer) => {
    it('answers 429 with Retry-After past the query limit, per key, leaving ingest alone', async () => {
      const { url, aliceKey, bobKey } = getServer();
      expect((await query(url, aliceKey)).status).toBe(200);
      expect((await query(url, aliceKey)).status).toBe(200);
      const limited = await query(url, aliceKey);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited.json()).toEqual({
        reason: expect.stringMatching(/^Rate limit of 2 query requests per min exceeded/),
        error_type: 'RateLimited',
      });
      expect((await query(url, aliceKey)).status).toBe(429);
      // Another key has its own budget; ingest is another class.
      expect(
        (await fetch(`${url}/objs/query`, { method: 'POST', headers: basic(bobKey), body: '{"project_id":"globex/limits"}' })).status,
      ).toBe(200);
      expect((await ingest(url, aliceKey, 1)).status).toBe(200);
      // Anonymous operations are never limited.
      for (let i = 0; i < 5; i++) expect((await fetch(`${url}/health`)).status).toBe(200);
    });
  },
  { RATE_LIMIT_QUERY: '2/m' },
);

const redisUp = () =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection(6379, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describeIfPostgres('two replicas share one budget through Redis', () => {
  const key = generateApiKey();
  let replicas: ServerProcess[] = [];
  let db: { url: string; drop(): Promise<void> } | undefined;
  let available = true;

  beforeAll(async () => {
    available = await redisUp();
    if (!available) {
      if (process.env.WEFT_REQUIRE_REDIS === '1') throw new Error('Redis is not reachable on 127.0.0.1:6379 (WEFT_REQUIRE_REDIS=1)');
      console.warn('SKIPPED: Redis is not reachable on 127.0.0.1:6379; the shared rate-limit test did not run');
      return;
    }
    db = await createPgTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'weft-limits-'));
    const authFile = join(dir, 'auth.yaml');
    writeFileSync(authFile, formatAuthFile({ users: [{ username: 'alice', entities: ['acme'], apiKeyHashes: [hashApiKey(key)] }] }));
    const env = { DATABASE_URL: db.url, AUTH_FILE: authFile, DATA_DIR: dir, REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_INGEST: '6/m' };
    replicas = await Promise.all([spawnServer(env), spawnServer(env)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await db?.drop();
  });

  it('lets 6 ingest requests through across both replicas, then 429 on either', async (ctx) => {
    if (!available) return ctx.skip();
    const [a, b] = replicas as [ServerProcess, ServerProcess];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await ingest((i % 2 ? b : a).url, key, i)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await ingest(a.url, key, 6)).status).toBe(429);
    expect((await ingest(b.url, key, 7)).status).toBe(429);
    // Queries are another class, not limited here.
    expect((await query(b.url, key)).status).toBe(200);
  });
});
