import { loadCatalogue } from '@weft/core';
import { createStore, openDatabase } from '@weft/store';
import type * as T from '@weft/types';
import { callsQueryRequest } from './scenarios/calls-query-request.ts';
const db = await openDatabase(`sqlite:///tmp/seed-copy.sqlite`);
const store = createStore({ db, catalogue: await loadCatalogue(undefined) });
const req = callsQueryRequest('large') as unknown as T.CallsStreamQueryReq;
const mode = process.env.MODE ?? 'lines';
async function once() {
  let text = '';
  for await (const call of await store.callsStreamQuery(req, { user: 'bench', mayRead: () => true })) if (mode === 'lines') text += `${JSON.stringify(call)}\n`;
  return text;
}
for (let r = 0; r < 5; r++) {
  const t = performance.now(); let n = 0;
  while (performance.now() - t < 2000) { await once(); n++; }
  console.log(`${((performance.now() - t) / n).toFixed(3)} ms per answer`);
}
await db.close();
