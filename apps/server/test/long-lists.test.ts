// Bodies with a long list (a call batch, a table's rows) are validated a slice at a time, with
// the validator's answers: a valid body is taken whole, the first invalid item is named, a
// problem outside the list is still found, and a list with a length bound is still refused past it.
import { expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

describeEachDatabase('long lists in bodies', (getServer) => {
  async function post(path: string, body: unknown) {
    const { url, aliceKey } = getServer();
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const project_id = 'acme/long-lists';
  const start = (i: number) => ({
    mode: 'start',
    req: {
      start: {
        project_id,
        id: `c${i}`,
        trace_id: `t${i}`,
        op_name: 'op',
        started_at: '2025-01-01T00:00:00Z',
        attributes: {},
        inputs: { i },
      },
    },
  });
  const locs = (r: { body: Record<string, unknown> }) => (r.body.detail as Array<{ loc: string[] }>).map((d) => d.loc.join('.'));

  it('takes a valid batch of 5,000 items whole', async () => {
    const batch = Array.from({ length: 5000 }, (_, i) => start(i));
    const r = await post('/call/upsert_batch', { batch });
    expect(r.status).toBe(200);
    expect((r.body.res as unknown[]).length).toBe(5000);
    const read = await post('/call/read', { project_id, id: 'c4999' });
    expect(read).toMatchObject({ status: 200, body: { call: { id: 'c4999', inputs: { i: 4999 } } } });
  });

  it('names the first invalid item of a long batch, and writes nothing', async () => {
    const batch = Array.from({ length: 5000 }, (_, i) => start(10_000 + i));
    (batch[3210]!.req.start as Record<string, unknown>).started_at = 'yesterday';
    (batch[4000]!.req.start as Record<string, unknown>).op_name = 7;
    const r = await post('/call/upsert_batch', { batch });
    expect(r.status).toBe(422);
    expect(new Set(locs(r).map((l) => l.split('.').slice(0, 3).join('.')))).toEqual(new Set(['body.batch.3210']));
    expect(locs(r)).toContain('body.batch.3210.req.start.started_at');
    expect((await post('/call/read', { project_id, id: 'c10000' })).status).toBe(404);
  });

  it('still checks the rest of the body around a long list', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ i }));
    const r = await post('/table/create', { table: { rows } });
    expect(r.status).toBe(422);
    expect(locs(r)).toEqual(['body.table.project_id']);
    const bad = await post('/table/create', { table: { project_id, rows: [...rows, 5] } });
    expect(bad.status).toBe(422);
    expect(locs(bad)).toEqual(['body.table.rows.3000']);
    const ok = await post('/table/create', { table: { project_id, rows } });
    expect(ok.status).toBe(200);
    expect((ok.body.row_digests as unknown[]).length).toBe(3000);
  });

  // A body over 64 kB is read in slices, and its rows kept as their text, unparsed
  // (body/parse-json-chunks.ts): still refused as the validator refuses them, long list or not.
  it('refuses a row that is not an object in a large body, whether the list is long or not', async () => {
    const { url, aliceKey } = getServer();
    const postText = async (text: string) => {
      const res = await fetch(url + '/table/create', {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}`, 'content-type': 'application/json' },
        body: text,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    for (const count of [600, 3000]) {
      const rows = Array.from({ length: count }, (_, i) => JSON.stringify({ i, pad: 'p'.repeat(120) }));
      const text = (list: string[]) => `{"table":{"project_id":"${project_id}","rows":[${list.join(',')}]}}`;
      expect(text(rows).length).toBeGreaterThan(64 * 1024);
      const bad = [...rows];
      bad[count / 2] = '[1,{"a":2}]';
      const refused = await postText(text(bad));
      expect(refused.status).toBe(422);
      expect(locs(refused)).toEqual([`body.table.rows.${count / 2}`]);
      const malformed = [...rows];
      malformed[count / 2] = '{"a":1,}';
      // Malformed JSON, placed in the body as JSON.parse places it: FastAPI's json_invalid.
      const broken = await postText(text(malformed));
      expect(broken.status).toBe(422);
      expect(broken.body.detail).toEqual([
        { loc: ['body'], msg: expect.stringMatching(/^JSON decode error: .* at position \d+$/), type: 'json_invalid' },
      ]);
      const ok = await postText(text(rows));
      expect(ok.status).toBe(200);
      expect((ok.body.row_digests as unknown[]).length).toBe(count);
    }
  });

  it('refuses a list past its maxItems as before', async () => {
    const r = await post('/objs/query', { project_id, filter: { object_ids: Array.from({ length: 5000 }, (_, i) => `o${i}`) } });
    expect(r.status).toBe(422);
    expect(locs(r)).toEqual(['body.filter.object_ids']);
  });
});
