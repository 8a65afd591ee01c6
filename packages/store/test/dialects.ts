// Runs store tests on both databases: once on a fresh migrated SQLite :memory: database (and,
// where asked, on a SQLite file too) and once on a fresh migrated PostgreSQL database (created
// through WEFT_TEST_PG_URL, dropped afterwards).
//
// When PostgreSQL is unreachable the PostgreSQL half is skipped with a visible warning, unless
// WEFT_REQUIRE_PG=1 (CI), where its tests fail instead.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { migrateToLatest, openDatabase, redactUrl, type Db } from '../src/db/index.ts';

export const TEST_PG_URL = process.env.WEFT_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REQUIRE_PG = process.env.WEFT_REQUIRE_PG === '1';

type PgStatus = { reachable: true } | { reachable: false; reason: string };

async function probePostgres(): Promise<PgStatus> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return { reachable: true };
  } catch (err) {
    const e = err as Error & { code?: string };
    const text = e instanceof AggregateError ? e.errors.map((x: Error) => x.message).join('; ') : e.message || e.code;
    return { reachable: false, reason: text ?? String(err) };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Probed once per test file, when this module loads. */
export const pgStatus: PgStatus = await probePostgres();

const WARNED = Symbol.for('weft.store.test.pgSkipWarned');
function unreachableMessage(): string {
  const reason = pgStatus.reachable ? '' : pgStatus.reason;
  return `PostgreSQL not reachable at ${redactUrl(TEST_PG_URL)} (${reason})`;
}
function warnSkippedOnce(): void {
  const g = globalThis as { [WARNED]?: boolean };
  if (g[WARNED]) return;
  g[WARNED] = true;
  console.warn(`${unreachableMessage()}: PostgreSQL store tests SKIPPED (set WEFT_REQUIRE_PG=1 to fail instead)`);
}

/** A fresh, empty PostgreSQL database for one test suite (or a server-level test). */
export async function createPgTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `weft_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  let dropping: Promise<void> | undefined;
  return {
    url: url.toString(),
    // FORCE: a test that failed mid-way may leave connections open.
    drop: () => (dropping ??= adminQuery(`drop database if exists ${name} with (force)`)),
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Declares `body` twice: "<name> [sqlite]" and "<name> [postgres]". `getDb()` returns that half's
 * database, fresh and migrated for the suite (shared by its tests: use distinct project ids).
 * `sqliteFile`: a third time on a SQLite file, where long reads go to the reader thread
 * (db.readLong; in memory they cannot). `variant` names the half, for what differs between them.
 */
export function describeEachDialect(
  name: string,
  body: (getDb: () => Db, variant: 'sqlite file' | 'sqlite' | 'postgres') => void,
  opts: { sqliteFile?: boolean } = {},
): void {
  if (opts.sqliteFile) {
    describe(`${name} [sqlite file]`, () => {
      let db: Db | undefined;
      let dir: string | undefined;
      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), 'weft-store-'));
        db = await openDatabase(`sqlite:${join(dir, 'weft.sqlite')}`);
        await migrateToLatest(db);
      });
      afterAll(async () => {
        await db?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });
      body(() => required(db), 'sqlite file');
    });
  }
  describe(`${name} [sqlite]`, () => {
    let db: Db | undefined;
    beforeAll(async () => {
      db = await openDatabase('sqlite::memory:');
      await migrateToLatest(db);
    });
    afterAll(async () => {
      await db?.close();
    });
    body(() => required(db), 'sqlite');
  });

  describeIfPostgres(`${name} [postgres]`, (getUrl) => {
    let db: Db | undefined;
    beforeAll(async () => {
      db = await openDatabase(getUrl());
      await migrateToLatest(db);
    });
    afterAll(async () => {
      await db?.close();
    });
    body(() => required(db), 'postgres');
  });
}

/**
 * A PostgreSQL-only suite on a fresh, empty (not migrated) database; `getUrl()` is its URL.
 * Skipped or failing when PostgreSQL is unreachable, as in describeEachDialect.
 */
export function describeIfPostgres(name: string, body: (getUrl: () => string) => void): void {
  if (!pgStatus.reachable && !REQUIRE_PG) {
    warnSkippedOnce();
    describe.skip(`${name} (${unreachableMessage()})`, () => body(() => '(skipped)'));
    return;
  }
  if (!pgStatus.reachable) {
    // A failing test rather than a failing hook: vitest counts a hook failure's tests as skipped,
    // and CI reads the counts.
    describe(name, () => {
      it('needs PostgreSQL (WEFT_REQUIRE_PG=1)', () => {
        throw new Error(`WEFT_REQUIRE_PG=1 but ${unreachableMessage()}`);
      });
    });
    return;
  }
  describe(name, () => {
    let testDb: { url: string; drop(): Promise<void> } | undefined;
    beforeAll(async () => {
      testDb = await createPgTestDatabase();
    });
    // Registered before the body's hooks, so it runs after them (afterAll runs in reverse order).
    afterAll(async () => {
      await testDb?.drop();
    });
    body(() => required(testDb).url);
  });
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('The test database is not open (did beforeAll fail?)');
  return value;
}

/**
 * A PostgreSQL-only suite with two Db connections (each its own pool) on one fresh migrated
 * database: two server replicas, for concurrency tests.
 */
export function describeTwoReplicas(name: string, body: (replicas: () => [Db, Db], getUrl: () => string) => void): void {
  describeIfPostgres(name, (getUrl) => {
    let pair: [Db, Db] | undefined;
    beforeAll(async () => {
      const a = await openDatabase(getUrl());
      await migrateToLatest(a);
      pair = [a, await openDatabase(getUrl())];
    });
    afterAll(async () => {
      await Promise.all(pair?.map((db) => db.close()) ?? []);
    });
    body(() => required(pair), getUrl);
  });
}
