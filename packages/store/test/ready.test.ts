// The store's side of GET /ready: ready once the database answers and every migration of this
// version is applied; `pending` for a database not migrated yet (a replica of a newer version may
// be waiting for it), on both databases.
import { loadCatalogue } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { createStore } from '../src/create-store.ts';
import { openDatabase, runMigrations, migrationsFor, migrateToLatest, type Db } from '../src/db/index.ts';
import { describeIfPostgres } from './dialects.ts';

const catalogue = await loadCatalogue();

async function checkReadiness(db: Db): Promise<void> {
  const store = createStore({ db, catalogue });
  const all = migrationsFor(db.dialect);
  const names = Object.keys(all);
  await runMigrations(db, Object.fromEntries(names.slice(0, -1).map((n) => [n, all[n]!])));
  expect(await store.ready({}, {})).toEqual({
    status: 'not_ready',
    database: 'ok',
    migrations: 'pending',
    draining: false,
    reason: 'the database lacks 1 migration(s) of this version (run weft migrate)',
  });
  await migrateToLatest(db);
  expect(await store.ready({}, {})).toEqual({ status: 'ready', database: 'ok', migrations: 'applied', draining: false, reason: 'ready' });
  await db.close();
  expect(await store.ready({}, {})).toEqual({
    status: 'not_ready',
    database: 'unreachable',
    migrations: 'unknown',
    draining: false,
    reason: expect.any(String) as string,
  });
}

describe('store readiness [sqlite]', () => {
  it('is pending until every migration is applied, unreachable once closed', async () => {
    await checkReadiness(await openDatabase('sqlite::memory:'));
  });
});

describeIfPostgres('store readiness [postgres]', (getUrl) => {
  it('is pending until every migration is applied, unreachable once closed', async () => {
    await checkReadiness(await openDatabase(getUrl()));
  });
});
