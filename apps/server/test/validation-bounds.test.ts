// Validation work is bounded by the body: a request is validated up to its first problem, and
// only a small invalid body is validated again to list all its problems (ajv's cost for collecting
// every error grows with the square of their number: 20,000 bad items took 45 s).
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

describeEachDatabase('validation work', (getServer) => {
  const json = { 'content-type': 'application/json' };
  async function send(path: string, body: string, headers: Record<string, string>) {
    const { url, aliceKey } = getServer();
    const res = await fetch(url + path, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}`, ...headers }, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  describe('is bounded', () => {
      it('lists every problem of a small body, and only the first of a large one', async () => {
        const bad = (n: number) => JSON.stringify({ batch: Array.from({ length: n }, () => ({ mode: 'start', req: { start: {} } })) });
        const small = await send('/call/upsert_batch', bad(3), json);
        expect(small.status).toBe(422);
        const smallLocs = (small.body!.detail as Array<{ loc: string[] }>).map((d) => d.loc.slice(0, 3).join('.'));
        expect(new Set(smallLocs)).toEqual(new Set(['body.batch.0', 'body.batch.1', 'body.batch.2']));
        // 20,000 bad items: collecting every problem grows with their square (45 s); the first is enough.
        const large = await send('/call/upsert_batch', bad(20_000), json);
        expect(large.status).toBe(422);
        const largeLocs = (large.body!.detail as Array<{ loc: string[] }>).map((d) => d.loc.slice(0, 3).join('.'));
        expect(new Set(largeLocs)).toEqual(new Set(['body.batch.0']));
      });
    });

});
