// Concurrent writers of one object: contiguous version indexes, one latest version, one row per
// value, and no error to anyone. On PostgreSQL through two Store instances with their own pools
// on one database, as two server replicas would be.
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/index.ts';
import { describeEachDialect, describeIfPostgres } from '../dialects.ts';
import { ALICE, createObj, newProject, storeOn, type TestStore } from './helpers.ts';

async function checkVersions(store: TestStore, p: string, objectId: string, n: number): Promise<T.ObjSchema[]> {
  const { objs } = await store.objsQuery(
    { project_id: p, filter: { object_ids: [objectId] }, sort_by: [{ field: 'object_id', direction: 'asc' }] },
    ALICE,
  );
  expect(objs.map((o) => o.version_index)).toEqual(Array.from({ length: n }, (_, i) => i));
  expect(objs.filter((o) => o.is_latest === 1)).toHaveLength(1);
  return objs;
}

function concurrencyTests(getStores: () => TestStore[]): void {
  it('50 concurrent creates of distinct values: versions 0..49, one latest', async () => {
    const stores = getStores();
    const p = newProject('race');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createObj(stores[i % stores.length] as TestStore, p, 'o', { i })),
    );
    const objs = await checkVersions(stores[0] as TestStore, p, 'o', 50);
    expect(new Set(objs.map((o) => o.digest))).toEqual(new Set(results.map((r) => r.digest)));
  });

  it('the same value created concurrently is one version', async () => {
    const stores = getStores();
    const p = newProject('race-same');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createObj(stores[i % stores.length] as TestStore, p, 'o', { same: true })),
    );
    expect(new Set(results.map((r) => r.digest)).size).toBe(1);
    await checkVersions(stores[0] as TestStore, p, 'o', 1);
  });

  it('creates and deletes racing keep exactly one live latest version', async () => {
    const stores = getStores();
    const p = newProject('race-delete');
    await createObj(stores[0] as TestStore, p, 'o', { seed: true });
    const ops = Array.from({ length: 40 }, (_, i) => {
      const store = stores[i % stores.length] as TestStore;
      return i % 4 === 3
        ? store.objDelete({ project_id: p, object_id: 'o', digests: ['latest'] }, ALICE).catch(() => undefined)
        : createObj(store, p, 'o', { i });
    });
    await Promise.all(ops);
    const { objs } = await (stores[0] as TestStore).objsQuery({ project_id: p }, ALICE);
    expect(objs.length).toBeGreaterThan(0);
    expect(objs.filter((o) => o.is_latest === 1)).toHaveLength(1);
    const indexes = objs.map((o) => o.version_index);
    expect(new Set(indexes).size).toBe(indexes.length);
  });
}

describeEachDialect('object writes, concurrent in one process', (getDb) => {
  concurrencyTests(() => [storeOn(getDb())]);
});

/** Two Store instances with their own pools on one fresh database, as two replicas would be. */
function replicas(getUrl: () => string, serverIsolation?: string): () => TestStore[] {
  let dbs: Db[] = [];
  beforeAll(async () => {
    const first = await openDatabase(getUrl(), { pool: { max: 5 } });
    await migrateToLatest(first);
    if (serverIsolation) {
      // Applies to connections opened from now on.
      const name = new URL(getUrl()).pathname.slice(1);
      await sql`alter database ${sql.id(name)} set default_transaction_isolation = ${sql.lit(serverIsolation)}`.execute(first.kysely);
    }
    await first.close();
    dbs = [await openDatabase(getUrl(), { pool: { max: 5 } }), await openDatabase(getUrl(), { pool: { max: 5 } })];
  });
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
  });
  return () => dbs.map(storeOn);
}

describeIfPostgres('object writes, concurrent across two Store instances (replicas)', (getUrl) => {
  concurrencyTests(replicas(getUrl));
});

// The store sets READ COMMITTED itself: under REPEATABLE READ a transaction would keep the snapshot
// it took before waiting for the lock and miss what the previous holder committed.
describeIfPostgres('object writes across replicas, the server defaulting to REPEATABLE READ', (getUrl) => {
  concurrencyTests(replicas(getUrl, 'repeatable read'));
});
