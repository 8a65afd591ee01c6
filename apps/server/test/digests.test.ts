// Weave's digest test vectors, sent as raw JSON text so number lexemes (1.0 vs 1) reach the server.
import { expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

const VECTORS: Array<[string, string]> = [
  ['{"b":1,"a":"x"}', 'OFgg8Alv1Vj0CRMZ5Yp0LOv4d9w7rKGAmBiJ8cQOyoQ'],
  ['{"a":1.0}', 'dCYJsgfwkAqOLf866DrEeUGvXCm7brXylYTKfdY9g1Q'],
  ['{"a":1}', 'XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA'],
  ['{"k":"é"}', 'zZjU1kzUeU30twHX86DnQMD03UIkKKG3dPt4I1OeKsc'],
  ['[1, 2, 3]', 'o2sfLDXEUi3RAFFFZGYX1wVMCFHpfHKgOcC9Xsn6BYM'],
  ['"hello"', 'WqdirjgYu3J688ejbUlApbjECpiUUtIwT8lYYz81Tno'],
  ['null', 'dCNOmKYnSYX12vHzasLXiswzlGT5UHA7jAGYkvmCuQs'],
  ['{}', 'RBNvo1WzZ4oRRq0W9XhknpT7T8If536DEMBg9hyqY4o'],
  ['{"x":true,"y":false}', 'geYJQqnHhVssZOL4AysdAqn1R2jn7svzAGCiYR3kEJU'],
  ['{"a":1e16}', '33KyRZekSVr5zBb3k1flmiTAN1j7KnYX1IyXUMCPmq8'],
  ['{"a":0.00001}', 'FkmllZIrNMHvpeH2Lriq39yt0D9lscv24syuqnj4s08'],
  ['{"a":0.1}', 'Z0eawCmMsXoPHp9YHeUfpNkVyRjLBFAYRfJsXSrAXnw'],
  ['{"n":1e15}', 'cBXeqVGpNAcnYi2i4yZXK5B5CUNswajvDkXnzMpP8mo'],
  ['{"e":"😀"}', 'kIDRtSBirLECtD09UlZ07ctcYnfyyYWJYsWg1Fpgs9w'],
];

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

  VECTORS.forEach(([val, digest], i) => {
    it(`obj/create of ${val} answers ${digest}`, async () => {
      const r = await postRaw('/obj/create', `{"obj": {"project_id": "acme/digests", "object_id": "v${i}", "val": ${val}}}`);
      expect(r.digest).toBe(digest);
    });
  });

  it('table/create of [{"a":1},{"a":2}] answers Weave\'s table and row digests', async () => {
    const r = await postRaw('/table/create', '{"table": {"project_id": "acme/digests", "rows": [{"a": 1}, {"a": 2}]}}');
    expect(r).toEqual({
      digest: '1c95cdc46a75d6e7e971986a80adfcd676dd22f2222a3405c7743f3db8df6785',
      row_digests: ['XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA', '5anVsDAOD1DTcuWp3fokIIqsmpQM6aNvJHOHIhriBf4'],
    });
  });

  it('table/create of no rows answers the sha256 of ""', async () => {
    const r = await postRaw('/table/create', '{"table": {"project_id": "acme/digests", "rows": []}}');
    expect(r).toEqual({ digest: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', row_digests: [] });
  });

  it('a float row 1.0 and an int row 1 are different rows', async () => {
    const r = await postRaw('/table/create', '{"table": {"project_id": "acme/digests", "rows": [{"a": 1.0}, {"a": 1}]}}');
    expect(r.row_digests).toEqual(['dCYJsgfwkAqOLf866DrEeUGvXCm7brXylYTKfdY9g1Q', 'XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA']);
  });
});

