import { createStore, openDatabase, migrateToLatest } from '@weft/store';
import { loadCatalogue } from '@weft/core';
const url = process.argv[2]; const digest = process.argv[3];
const db = await openDatabase(url);
await migrateToLatest(db);
const store = createStore({ db, catalogue: await loadCatalogue(undefined) });
const ctx = { user: 'x' };
for (const offset of [500000, 999900, 0, 100, 500000]) {
  let t = performance.now();
  const r = await store.tableQuery({ project_id: 'b/p', digest, limit: 100, offset, sort_by: [{ field: 'scores.judge.score', direction: 'asc' }] }, ctx);
  console.log('sorted', offset, (performance.now() - t).toFixed(2), r.rows.length, r.rows[0]?.original_index);
}
await db.close();
