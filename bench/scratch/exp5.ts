import { artLogBody } from '../src/fixtures/art-payload.ts';
let t = performance.now();
const b = artLogBody(64);
console.log('build', performance.now() - t, b.length / 1048576);
for (let i = 0; i < 3; i++) { t = performance.now(); JSON.parse(b); const ms = performance.now() - t; console.log('parse', ms, b.length / 1048576 / (ms / 1000), 'MB/s'); }
