import { createStore, openDatabase } from '@weft/store';
import { loadCatalogue } from '@weft/core';
import { sql } from 'kysely';
const url = process.argv[2]; const digest = process.argv[3];
const db = await openDatabase(url);
const store = createStore({ db, catalogue: await loadCatalogue(undefined) });
const ctx = { user: 'x' };
for (const offset of [0, 500000, 999900]) {
  let t = performance.now();
  const r = await store.tableQuery({ project_id: 'b/p', digest, limit: 100, offset }, ctx);
  console.log('default', offset, (performance.now() - t).toFixed(2), r.rows.length);
}
for (const offset of [0, 500000]) {
  let t = performance.now();
  const r = await store.tableQuery({ project_id: 'b/p', digest, limit: 100, offset, sort_by: [{ field: 'scores.judge.score', direction: 'asc' }] }, ctx);
  console.log('sorted', offset, (performance.now() - t).toFixed(2), r.rows.length, r.rows[0]?.original_index);
}
await db.close();
