import { parseLossless, rowDigest } from '@weft/core';
import { it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { storeOn, viaHttp } from '../objects/helpers.ts';
import { encodeValue } from '../../src/objects/value-encoding.ts';

describeEachDialect('bench', (getDb) => {
  it('100k rows', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, question: `What is ${i} + ${i}?`, answer: String(2 * i), score: i / 7, tags: ['a', 'b'] }));
    const body = JSON.stringify({ table: { project_id: 'bench/p', rows } });
    let t = performance.now();
    const src = parseLossless(body) as any;
    const parseMs = performance.now() - t;
    t = performance.now();
    for (const r of src.table.rows) rowDigest(r);
    const digestMs = performance.now() - t;
    t = performance.now();
    for (const r of src.table.rows) encodeValue(undefined, r);
    const encodeMs = performance.now() - t;
    const store = storeOn(getDb());
    const [req, ctx] = viaHttp<any>(body);
    t = performance.now();
    const res = await store.tableCreate(req, ctx);
    const createMs = performance.now() - t;
    t = performance.now();
    const q = await store.tableQuery({ project_id: 'bench/p', digest: res.digest }, { user: 'a' });
    const queryAllMs = performance.now() - t;
    t = performance.now();
    await store.tableQuery({ project_id: 'bench/p', digest: res.digest, offset: 90000, limit: 100 }, { user: 'a' });
    const pageMs = performance.now() - t;
    t = performance.now();
    await store.tableQuery({ project_id: 'bench/p', digest: res.digest, sort_by: [{ field: 'score', order: 'desc' }], limit: 100 }, { user: 'a' });
    const sortMs = performance.now() - t;
    console.log(getDb().dialect, { parseMs, digestMs, encodeMs, createMs, rowsPerSec: Math.round(100000 / (createMs / 1000)), queryAllMs, n: q.rows.length, pageMs, sortMs });
  }, 300_000);
});
