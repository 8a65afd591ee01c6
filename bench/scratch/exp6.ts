import { artLogBody } from '../src/fixtures/art-payload.ts';
import { evalRow } from '../src/fixtures/eval-rows.ts';
import { digestOfValue, rowDigest, parseLossless, tableDigest } from '@weft/core';
const b = artLogBody(64); console.log(b.length / 1048576);
const rows = Array.from({ length: 100000 }, (_, i) => evalRow(i, 1));
let t = performance.now(); const d = rows.map(digestOfValue); console.log('digestOfValue', performance.now() - t);
const body = JSON.stringify({ table: { project_id: 'x/y', rows } });
t = performance.now(); const node = parseLossless(body) as any; console.log('lossless', performance.now() - t, body.length / 1e6);
t = performance.now(); const d2 = node.table.rows.map(rowDigest); tableDigest(d2); console.log('rowDigest', performance.now() - t, d2[5] === d[5]);
