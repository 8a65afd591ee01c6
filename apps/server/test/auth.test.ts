// The auth matrix over HTTP: no key, bad key, wrong scheme, other tenant, anonymous operations.
import { beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from './test-server.ts';

describeEachDatabase('auth', (getServer) => {
  let server: TestServer;
  beforeEach(() => {
    server = getServer();
  });

  const basicOf = (key: string, user = 'api') => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

  async function objsQuery(authorization: string | undefined, project_id = 'acme/support') {
    const res = await fetch(`${server.url}/objs/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ project_id }),
    });
    return { res, body: (await res.json()) as Record<string, unknown> };
  }

  describe('Basic operations', () => {
    it('accept the key with username api, as Weave SDKs send it', async () => {
      const { res, body } = await objsQuery(basicOf(server.aliceKey));
      expect(res.status).toBe(200);
      expect(body).toEqual({ objs: [] });
    });

    it("accept the key with the owner's username", async () => {
      expect((await objsQuery(basicOf(server.aliceKey, 'alice'))).res.status).toBe(200);
    });

    it('refuse a missing header with 401 and WWW-Authenticate', async () => {
      const { res, body } = await objsQuery(undefined);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect(body).toMatchObject({ reason: expect.any(String) });
    });

    it('refuse a wrong key', async () => {
      expect((await objsQuery(basicOf('weft_not-a-real-key'))).res.status).toBe(401);
    });

    it('refuse the Bearer scheme', async () => {
      const { res } = await objsQuery(`Bearer ${server.aliceKey}`);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    });

    it('refuse a project of another entity with 403, and leak nothing', async () => {
      await server.client('bob').POST('/obj/create', {
        body: { obj: { project_id: 'globex/secret', object_id: 'plan', val: { launch: 'friday' } } },
      });
      const { res, body } = await objsQuery(basicOf(server.aliceKey), 'globex/secret');
      expect(res.status).toBe(403);
      expect(JSON.stringify(body)).not.toContain('friday');
    });

    it('check every item of a call batch before writing any', async () => {
      const start = (project_id: string, id: string) => ({
        mode: 'start' as const,
        req: { start: { project_id, id, op_name: 'op', started_at: '2025-01-01T00:00:00.000Z', attributes: {}, inputs: {} } },
      });
      const res = await server.client().raw.POST('/call/upsert_batch', {
        body: { batch: [start('acme/support', 'c-mine'), start('globex/secret', 'c-theirs')] },
      });
      expect(res.response.status).toBe(403);
      const read = await server.client().raw.POST('/call/read', { body: { project_id: 'acme/support', id: 'c-mine' } });
      expect(read.response.status).toBe(404);
    });
  });

  describe('Bearer operations', () => {
    const create = (authorization?: string) =>
      fetch(`${server.url}/v1/preview/models`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({
          entity: 'acme',
          project: 'rl',
          name: 'agent',
          base_model: 'OpenPipe/Qwen3-14B-Instruct',
          return_existing: true,
        }),
      });

    it('accept the key as a bearer token', async () => {
      expect((await create(`Bearer ${server.aliceKey}`)).status).toBe(200);
    });

    it('refuse Basic with 401 and a Bearer challenge', async () => {
      const res = await create(basicOf(server.aliceKey));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    });

    it('refuse another entity with 403', async () => {
      expect((await create(`Bearer ${server.bobKey}`)).status).toBe(403);
    });

    it("refuse reading another entity's model with 403", async () => {
      const model = (await (await create(`Bearer ${server.aliceKey}`)).json()) as { id: string };
      const res = await fetch(`${server.url}/v1/preview/models/${model.id}`, { headers: { authorization: `Bearer ${server.bobKey}` } });
      expect(res.status).toBe(403);
    });
  });

  describe('anonymous operations', () => {
    it('serve the router list and health without credentials', async () => {
      expect((await fetch(`${server.url}/inference/router/gateway/models`)).status).toBe(200);
      const health = await fetch(`${server.url}/health`, { headers: { authorization: basicOf('anything') } });
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
    });
  });
});
