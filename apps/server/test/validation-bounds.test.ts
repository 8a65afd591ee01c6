// Validation work is bounded by the body: a request is validated up to its first problem, and
// only a small invalid body is validated again to list all its problems (ajv's cost for collecting
// every error grows with the square of their number: 20,000 bad items took 45 s).
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

describeEachDatabase('validation work', (getServer) => {
  const json = { 'content-type': 'application/json' };
  async function send(path: string, body: string, headers: Record<string, string>) {
    const { url, aliceKey } = getServer();
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}`, ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  describe('is bounded', () => {
    it('lists every problem of a small body, and only the first of a large one', async () => {
      const bad = (n: number) => JSON.stringify({ batch: Array.from({ length: n }, () => ({ mode: 'start', req: { start: {} } })) });
      const small = await send('/call/upsert_batch', bad(3), json);
      expect(small.status).toBe(422);
      const smallLocs = (small.body.detail as Array<{ loc: string[] }>).map((d) => d.loc.slice(0, 3).join('.'));
      expect(new Set(smallLocs)).toEqual(new Set(['body.batch.0', 'body.batch.1', 'body.batch.2']));
      // 20,000 bad items: collecting every problem grows with their square (45 s); the first is enough.
      const large = await send('/call/upsert_batch', bad(20_000), json);
      expect(large.status).toBe(422);
      const largeLocs = (large.body.detail as Array<{ loc: string[] }>).map((d) => d.loc.slice(0, 3).join('.'));
      expect(new Set(largeLocs)).toEqual(new Set(['body.batch.0']));
    });
  });

  describe('nesting', () => {
    it('refuses nesting deeper than 1000 levels with 422, whatever the operation', async () => {
      const nested = (depth: number) => `${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}`;
      const bodies: Array<[string, (v: string) => string]> = [
        ['/obj/create', (v) => `{"obj":{"project_id":"acme/body","object_id":"deep","val":${v}}}`],
        [
          '/call/start',
          (v) =>
            `{"start":{"project_id":"acme/body","op_name":"o","started_at":"2025-01-01T00:00:00Z","attributes":{},"inputs":{"x":${v}}}}`,
        ],
      ];
      for (const [path, body] of bodies) {
        const r = await send(path, body(nested(1001)), json);
        expect(r, path).toMatchObject({ status: 422, body: { detail: [{ loc: ['body'], type: 'too_deep' }] } });
      }
      // 1000 levels are fine; brackets inside strings do not count.
      expect((await send('/obj/create', bodies[0]![1](nested(998)), json)).status).toBe(200);
      const brackets = `{"obj":{"project_id":"acme/body","object_id":"brackets","val":${JSON.stringify('['.repeat(5000))}}}`;
      expect((await send('/obj/create', brackets, json)).status).toBe(200);
    });
  });
});
