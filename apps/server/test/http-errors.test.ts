// Bad input gets the documented body and status — never a 500, never a crash.
import { beforeEach, describe, expect, it } from 'vitest';
import { operations } from '../src/http/spec.ts';
import { describeEachDatabase, type TestServer } from './test-server.ts';

describeEachDatabase(
  'bad input',
  (getServer) => {
    let server: TestServer;
    let basic: string;
    beforeEach(() => {
      server = getServer();
      basic = `Basic ${Buffer.from(`api:${server.aliceKey}`).toString('base64')}`;
    });

    async function post(path: string, body: string, headers: Record<string, string> = {}) {
      const res = await fetch(server.url + path, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json', ...headers },
        body,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }

    describe('422 validation body', () => {
      it('names a missing field with loc, msg and type "missing"', async () => {
        const r = await post('/objs/query', '{}');
        expect(r.status).toBe(422);
        expect(r.body).toEqual({ detail: [{ loc: ['body', 'project_id'], msg: expect.any(String), type: 'missing' }] });
      });

      it('lists every problem, not only the first', async () => {
        const r = await post('/objs/query', JSON.stringify({ project_id: 'acme/p', limit: 'ten', offset: -1 }));
        expect(r.status).toBe(422);
        const locs = (r.body.detail as Array<{ loc: string[] }>).map((d) => d.loc.join('.'));
        expect(locs).toEqual(expect.arrayContaining(['body.limit', 'body.offset']));
      });

      it('reports nested array positions as strings, as the seed types loc', async () => {
        const auth = `Bearer ${server.aliceKey}`;
        const res = await fetch(`${server.url}/v1/preview/models/00000000-0000-4000-8000-000000000000/log`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({ split: 'val', trajectory_groups: [{ trajectories: [{}, { reward: 'abc' }] }] }),
        });
        expect(res.status).toBe(422);
        const body = (await res.json()) as { detail: Array<{ loc: string[]; type: string }> };
        expect(body.detail).toContainEqual({
          loc: ['body', 'trajectory_groups', '0', 'trajectories', '1', 'reward'],
          msg: expect.any(String),
          type: 'float_type',
        });
      });

      it('answers malformed JSON with 422 json_invalid', async () => {
        const r = await post('/objs/query', '{"project_id": "acme/p",');
        expect(r.status).toBe(422);
        expect(r.body.detail).toEqual([{ loc: ['body'], msg: expect.stringContaining('JSON'), type: 'json_invalid' }]);
      });
    });

    describe('other client errors', () => {
      it('answers a body that is not JSON with 415', async () => {
        const r = await post('/objs/query', 'project_id=acme/p', { 'content-type': 'text/plain' });
        expect(r.status).toBe(415);
        expect(r.body).toMatchObject({ error_type: 'UnsupportedMediaType', reason: expect.any(String) });
      });

      it('answers a body over BODY_LIMIT with 413 and writes nothing', async () => {
        const big = JSON.stringify({ obj: { project_id: 'acme/limits', object_id: 'big', val: 'x'.repeat(4096) } });
        const r = await post('/obj/create', big);
        expect(r.status).toBe(413);
        expect(r.body).toEqual({ reason: 'Request too large', error_type: 'RequestTooLarge' });
        const list = await server.client().POST('/objs/query', { body: { project_id: 'acme/limits' } });
        expect(list.objs).toEqual([]);
      });

      it('gives the trajectory log its own, larger limit', async () => {
        const payload = JSON.stringify({ split: 'val', trajectory_groups: [{ trajectories: [{ logs: ['y'.repeat(8000)] }] }] });
        const res = await fetch(`${server.url}/v1/preview/models/00000000-0000-4000-8000-000000000000/log`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.aliceKey}`, 'content-type': 'application/json' },
          body: payload,
        });
        // Over BODY_LIMIT (2kb) but under LOG_BODY_LIMIT: parsed, validated, and the model is unknown.
        expect(res.status).toBe(404);
      });

      it('answers an unknown route with 404 and a reason', async () => {
        const r = await post('/no/such/operation', '{}');
        expect(r.status).toBe(404);
        // The one 404 name of the spec's NotFound answer, as for a missing resource.
        expect(r.body).toMatchObject({ reason: expect.stringContaining('/no/such/operation'), error_type: 'NotFoundError' });
      });
    });

    describe('no input makes the server fail', () => {
      const junk = [
        'null',
        '[]',
        '"text"',
        '42',
        '{"project_id": {"$ne": 1}}',
        '{"obj": []}',
        '{"table": {"rows": [1, 2]}}',
        '{"batch": [{"mode": "other"}]}',
      ];
      // Operations that take no body never read one (the training call: see art-flow.test.ts).
      for (const op of operations.filter((o) => (o.method === 'post' || o.method === 'put') && o.hasRequestBody)) {
        it(`${op.method.toUpperCase()} ${op.path} answers junk with a 4xx`, async () => {
          const path = op.path.replace('{queue_id}', 'q1').replace('{model_id}', 'm1');
          const authorization = op.schemes[0] === 'bearer' ? `Bearer ${server.aliceKey}` : basic;
          for (const body of junk) {
            const res = await fetch(server.url + path, {
              method: op.method.toUpperCase(),
              headers: { authorization, 'content-type': 'application/json' },
              body,
            });
            expect(res.status, `${body} → ${res.status}`).toBeGreaterThanOrEqual(400);
            expect(res.status, `${body} → ${res.status}`).toBeLessThan(500);
            expect(await res.json()).toBeTypeOf('object');
          }
        });
      }
    });
  },
  { BODY_LIMIT: '2kb', LOG_BODY_LIMIT: '64kb' },
);
