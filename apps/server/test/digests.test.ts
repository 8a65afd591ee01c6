// Weave's digest test vectors, sent as raw JSON text so number lexemes (1.0 vs 1) reach the server.
import { expect, it } from 'vitest';
import { WEAVE_EMPTY_TABLE_DIGEST, WEAVE_OBJECT_VECTORS, WEAVE_TABLE_VECTOR } from '@weft/core/testing';
import { describeEachDatabase } from './test-server.ts';

describeEachDatabase('Weave digests over HTTP', (getServer) => {
  const postRaw = async (path: string, text: string) => {
    const s = getServer();
    const res = await fetch(s.url + path, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`api:${s.aliceKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: text,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { digest: string; row_digests?: string[] };
  };

  WEAVE_OBJECT_VECTORS.forEach(({ text, digest }, i) => {
    it(`obj/create of ${text} answers ${digest}`, async () => {
      const r = await postRaw('/obj/create', `{"obj": {"project_id": "acme/digests", "object_id": "v${i}", "val": ${text}}}`);
      expect(r.digest).toBe(digest);
    });
  });

  it('table/create of [{"a":1},{"a":2}] answers Weave\'s table and row digests', async () => {
    const r = await postRaw('/table/create', `{"table": {"project_id": "acme/digests", "rows": ${WEAVE_TABLE_VECTOR.rowsText}}}`);
    expect(r).toEqual({ digest: WEAVE_TABLE_VECTOR.digest, row_digests: WEAVE_TABLE_VECTOR.rowDigests });
  });

  it('table/create of no rows answers the sha256 of ""', async () => {
    const r = await postRaw('/table/create', '{"table": {"project_id": "acme/digests", "rows": []}}');
    expect(r).toEqual({ digest: WEAVE_EMPTY_TABLE_DIGEST, row_digests: [] });
  });

  // Bodies over 64 kB are parsed a slice at a time (body/parse-json-chunks.ts): same digests.
  WEAVE_OBJECT_VECTORS.forEach(({ text, digest }, i) => {
    it(`obj/create of ${text}, in a body over 64 kB, answers ${digest}`, async () => {
      const pad = ' '.repeat(70_000);
      const r = await postRaw('/obj/create', `{"obj": {"project_id": "acme/digests",${pad}"object_id": "big${i}", "val": ${text}}}`);
      expect(r.digest).toBe(digest);
    });
  });

  it('table/create of 3,000 rows (a body over 64 kB) answers the digests of the same rows sent small', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `{"a": ${i}.0, "b": [1, 1.50, -0], "c": "x${i}"}`);
    const big = await postRaw('/table/create', `{"table": {"project_id": "acme/digests", "rows": [${rows.join(', ')}]}}`);
    const small = await Promise.all(
      [0, 1499, 2999].map((i) => postRaw('/table/create', `{"table": {"project_id": "acme/digests", "rows": [${rows[i]}]}}`)),
    );
    expect(small.map((r) => r.row_digests![0])).toEqual([0, 1499, 2999].map((i) => big.row_digests![i]));
    expect(new Set(big.row_digests).size).toBe(3000);
  });

  it('a float row 1.0 and an int row 1 are different rows', async () => {
    const r = await postRaw('/table/create', '{"table": {"project_id": "acme/digests", "rows": [{"a": 1.0}, {"a": 1}]}}');
    expect(r.row_digests).toEqual(['dCYJsgfwkAqOLf866DrEeUGvXCm7brXylYTKfdY9g1Q', 'XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA']);
  });
});
