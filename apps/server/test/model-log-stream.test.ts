// POST /v1/preview/models/{id}/log reads its body as a stream: any key order, and nothing is stored
// unless the whole body arrived and was valid (atomic even when the client goes away mid-body).
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '@weft/store';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { startTestServer, type TestServer } from './test-server.ts';

function suite(open: () => Promise<{ url: string; drop(): Promise<void> }>) {
  return () => {
    let server: TestServer;
    let db: Db;
    let target: { url: string; drop(): Promise<void> };
    let modelId: string;
    beforeAll(async () => {
      target = await open();
      server = await startTestServer('sqlite', { DATABASE_URL: target.url });
      db = await openDatabase(target.url);
      const res = await fetch(`${server.url}/v1/preview/models`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.aliceKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entity: 'acme', project: 'stream', name: 'm', base_model: 'b' }),
      });
      modelId = ((await res.json()) as { id: string }).id;
    });
    afterAll(async () => {
      await db?.close();
      await server?.close();
      await target?.drop();
    });

    const rows = async () => ({
      logs: (await db.kysely.selectFrom('trajectory_logs').select('id').execute()).length,
      groups: (await db.kysely.selectFrom('trajectory_groups').select('log_id').execute()).length,
      trajectories: (await db.kysely.selectFrom('trajectories').select('log_id').execute()).length,
    });
    const log = (body: string) =>
      fetch(`${server.url}/v1/preview/models/${modelId}/log`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.aliceKey}`, 'content-type': 'application/json' },
        body,
      });
    const groups = (n: number, pad = 0) =>
      Array.from({ length: n }, (_, g) => ({
        trajectories: [
          { reward: g, logs: ['x'.repeat(pad)] },
          { reward: 1, metrics: { ok: true } },
        ],
        metrics: { g },
      }));

    it('accepts split last (ART key order) and answers the metrics', async () => {
      const before = await rows();
      const res = await log(`{"model_id":"ignored","trajectory_groups":${JSON.stringify(groups(2))},"unknown":{"a":[1]},"split":"val"}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        log_id: expect.any(String),
        step: 0,
        trajectory_count: 4,
        metrics: { 'val/reward': 0.75, 'val/exception_rate': 0, 'val/ok': 1, 'val/reward_std_dev': 0.25, 'val/group/g': 0.5 },
        table_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      const after = await rows();
      expect(after).toEqual({ logs: before.logs + 1, groups: before.groups + 2, trajectories: before.trajectories + 4 });
    });

    it('stores nothing when the last trajectory breaks the schema', async () => {
      const before = await rows();
      const body = groups(3);
      (body[2]!.trajectories[1] as Record<string, unknown>).reward = 'high';
      const res = await log(JSON.stringify({ trajectory_groups: body, split: 'val' }));
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        detail: [{ loc: ['body', 'trajectory_groups', '2', 'trajectories', '1', 'reward'], msg: 'must be number', type: 'float_type' }],
      });
      expect(await rows()).toEqual(before);
    });

    it('stores nothing when the split is missing at the end', async () => {
      const before = await rows();
      const res = await log(JSON.stringify({ trajectory_groups: groups(2) }));
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        detail: [{ loc: ['body', 'split'], msg: "must have required property 'split'", type: 'missing' }],
      });
      expect(await rows()).toEqual(before);
    });

    it('stores nothing when the client goes away mid-body, and keeps serving', async () => {
      const before = await rows();
      const body = Buffer.from(JSON.stringify({ trajectory_groups: groups(40, 4000), split: 'val' }));
      const url = new URL(`${server.url}/v1/preview/models/${modelId}/log`);
      await new Promise<void>((resolve) => {
        const req = request(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.aliceKey}`, 'content-type': 'application/json', 'content-length': body.length },
        });
        req.on('error', () => resolve());
        req.on('response', () => resolve());
        // Most of the body, so that trajectories reach the open transaction, then hang up.
        // Once that much is on the wire, hang up.
        req.write(body.subarray(0, Math.floor(body.length * 0.8)), () => {
          req.destroy();
          resolve();
        });
      });
      // The server keeps serving; afterwards exactly that one log was added, nothing of the other.
      const res = await log(JSON.stringify({ split: 'val', trajectory_groups: groups(1) }));
      expect(res.status).toBe(200);
      expect(await rows()).toEqual({ logs: before.logs + 1, groups: before.groups + 1, trajectories: before.trajectories + 2 });
    });
  };
}

describe(
  'trajectory log stream [sqlite]',
  suite(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-log-stream-'));
    return { url: `sqlite:${join(dir, 'weft.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }),
);
describeIfPostgres('trajectory log stream [postgres]', () => suite(createPgTestDatabase)());
