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

  it('table/create of 3,000 rows (a body over 64 kB) answers and stores what the same rows sent small do', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `{"a": ${i}.0, "b": [1, 1.50, -0], "c": "x${i}\\u00e9"}`);
    // Rows the large body's reader leaves to their tree (parse-json-chunks.ts): a repeated key, an
    // array-index key; and one already minified, stored as its own text.
    rows[1] = '{"z": 1, "z": 2.0}';
    rows[2] = '{"b": 1, "7": [2.0]}';
    rows[3] = '{"a":3.0,"b":[1,1.50,-0],"c":"x3"}';
    const picked = [0, 1, 2, 3, 1499, 2999];
    const big = await postRaw('/table/create', `{"table": {"project_id": "acme/digests", "rows": [${rows.join(', ')}]}}`);
    const small = await Promise.all(
      picked.map((i) => postRaw('/table/create', `{"table": {"project_id": "acme/digests", "rows": [${rows[i]}]}}`)),
    );
    expect(small.map((r) => r.row_digests![0])).toEqual(picked.map((i) => big.row_digests![i]));
    expect(new Set(big.row_digests).size).toBe(3000);
    // The rows read back as those stored from the small bodies.
    const vals = async (digest: string, offset: number) =>
      (await postRaw('/table/query', JSON.stringify({ project_id: 'acme/digests', digest, offset, limit: 1 }))) as unknown as {
        rows: Array<{ val: unknown }>;
      };
    for (const [k, i] of picked.entries()) {
      // Key order included.
      expect(JSON.stringify((await vals(big.digest, i)).rows[0]!.val)).toBe(JSON.stringify((await vals(small[k]!.digest, 0)).rows[0]!.val));
    }
  });

  it('a float row 1.0 and an int row 1 are different rows', async () => {
    const r = await postRaw('/table/create', '{"table": {"project_id": "acme/digests", "rows": [{"a": 1.0}, {"a": 1}]}}');
    expect(r.row_digests).toEqual(['dCYJsgfwkAqOLf866DrEeUGvXCm7brXylYTKfdY9g1Q', 'XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA']);
  });
});
