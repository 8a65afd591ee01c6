import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, parseDatabaseUrl, type Db } from '../src/db/index.ts';
import { describeIfPostgres } from './dialects.ts';

const tmp = mkdtempSync(join(tmpdir(), 'weft-connect-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('parseDatabaseUrl', () => {
  it('defaults to <dataDir>/weft.sqlite when unset or blank', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ kind: 'sqlite', path: join('./data', 'weft.sqlite') });
    expect(parseDatabaseUrl('  ', '/var/lib/weft')).toEqual({ kind: 'sqlite', path: '/var/lib/weft/weft.sqlite' });
  });

  it('accepts sqlite:PATH, sqlite::memory: and postgres(ql)://', () => {
    expect(parseDatabaseUrl('sqlite:./x/y.db')).toEqual({ kind: 'sqlite', path: './x/y.db' });
    expect(parseDatabaseUrl('sqlite:/abs/y.db')).toEqual({ kind: 'sqlite', path: '/abs/y.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', path: ':memory:' });
    expect(parseDatabaseUrl('postgres://u@h/db')).toEqual({ kind: 'postgres', url: 'postgres://u@h/db' });
    expect(parseDatabaseUrl('postgresql://u@h/db')).toEqual({ kind: 'postgres', url: 'postgresql://u@h/db' });
  });

  it('rejects anything else, naming the accepted forms but not echoing the URL', () => {
    const bad = ['mysql://user:hunter2@h/db', 'sqlite:', 'sqlite://host/db', 'pg://user:hunter2@h/db', 'weft.sqlite'];
    for (const url of bad) {
      let message = '';
      try {
        parseDatabaseUrl(url);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, url).toMatch(/sqlite:PATH/);
      expect(message, url).toMatch(/postgres:\/\//);
      expect(message, url).not.toMatch(/hunter2/);
    }
  });
});

describe('openDatabase: SQLite', () => {
  it('creates <dataDir>/weft.sqlite, with WAL, synchronous=FULL, foreign keys and a busy timeout', async () => {
    const dataDir = join(tmp, 'nested', 'data');
    const db = await openDatabase(undefined, { dataDir });
    try {
      expect(db.dialect).toBe('sqlite');
      expect(existsSync(join(dataDir, 'weft.sqlite'))).toBe(true);
      expect(await pragma(db, 'journal_mode')).toBe('wal');
      expect(await pragma(db, 'synchronous')).toBe(2); // FULL
      expect(await pragma(db, 'foreign_keys')).toBe(1);
      expect(await pragma(db, 'busy_timeout')).toBe(5000);
      await db.ping();
    } finally {
      await db.close();
    }
  });

  it('opens sqlite:PATH (creating its directory) and keeps data across reopen', async () => {
    const url = `sqlite:${join(tmp, 'other', 'x.sqlite')}`;
    const a = await openDatabase(url);
    await sql`create table t (v integer)`.execute(a.kysely);
    await sql`insert into t values (42)`.execute(a.kysely);
    await a.close();
    const b = await openDatabase(url);
    const { rows } = await sql<{ v: number }>`select v from t`.execute(b.kysely);
    expect(rows).toEqual([{ v: 42 }]);
    await b.close();
  });

  it('close() is idempotent and ping() fails afterwards', async () => {
    const db = await openDatabase('sqlite::memory:');
    await db.ping();
    await db.close();
    await db.close();
    await expect(db.ping()).rejects.toThrow();
  });

  it('reports an unusable path clearly', async () => {
    const file = join(tmp, 'a-file');
    await (await openDatabase(`sqlite:${file}`)).close();
    // A path below a regular file cannot be created.
    await expect(openDatabase(`sqlite:${join(file, 'sub', 'x.sqlite')}`)).rejects.toThrow(/EEXIST|ENOTDIR|Cannot open/);
  });
});

describe('openDatabase: PostgreSQL failures', () => {
  it('fails fast when the server is unreachable, naming host, port and database but not the password', async () => {
    const port = await unusedPort();
    const started = Date.now();
    const err = await openDatabase(`postgres://weft:s3cret-pw@127.0.0.1:${port}/weft_db`).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err).toBeInstanceOf(Error);
    expect(err?.message).toContain(`127.0.0.1:${port}`);
    expect(err?.message).toContain('"weft_db"');
    expect(err?.message).toMatch(/ECONNREFUSED/);
    expect(err?.message).not.toContain('s3cret-pw');
  });

  it('rejects an invalid PGPOOL_MAX or PG_STATEMENT_TIMEOUT_MS before connecting', async () => {
    const url = 'postgres://u@127.0.0.1:1/db';
    await expect(openDatabase(url, { env: { PGPOOL_MAX: 'ten' } })).rejects.toThrow(/PGPOOL_MAX must be an integer >= 1, got "ten"/);
    await expect(openDatabase(url, { env: { PGPOOL_MAX: '0' } })).rejects.toThrow(/PGPOOL_MAX/);
    await expect(openDatabase(url, { env: { PG_STATEMENT_TIMEOUT_MS: '-5' } })).rejects.toThrow(/PG_STATEMENT_TIMEOUT_MS/);
  });

  it('does not show the password of a malformed URL', async () => {
    await expect(openDatabase('postgres://u:p@ss w0rd@[bad/db')).rejects.toThrow(/not shown/);
    await expect(openDatabase('postgres://u:p@ss w0rd@[bad/db')).rejects.not.toThrow(/w0rd/);
  });
});

describeIfPostgres('openDatabase: PostgreSQL', (getUrl) => {
  it('pings and closes idempotently', async () => {
    const db = await openDatabase(getUrl());
    expect(db.dialect).toBe('postgres');
    await db.ping();
    await db.close();
    await db.close();
    await expect(db.ping()).rejects.toThrow();
  });

  it('returns bigint and numeric as numbers and timestamps as text', async () => {
    const db = await openDatabase(getUrl());
    try {
      const { rows } = await sql<Record<string, unknown>>`select
          count(*) as n,
          cast(9007199254740991 as bigint) as max_safe,
          sum(x) as total,
          avg(x) as mean,
          cast('2025-01-02T03:04:05.678Z' as timestamptz) as ts,
          cast('2025-01-02' as date) as day
        from (values (1), (2)) as v(x)`.execute(db.kysely);
      expect(rows[0]).toEqual({ n: 2, max_safe: 9007199254740991, total: 3, mean: 1.5, ts: expect.any(String), day: '2025-01-02' });
      // A bigint that a double cannot hold fails instead of silently losing digits.
      await expect(sql`select cast(9007199254740993 as bigint) as n`.execute(db.kysely)).rejects.toThrow(/does not fit/);
    } finally {
      await db.close();
    }
  });

  it('applies PGPOOL_MAX and PG_STATEMENT_TIMEOUT_MS', async () => {
    const db = await openDatabase(getUrl(), { env: { PGPOOL_MAX: '2', PG_STATEMENT_TIMEOUT_MS: '200' } });
    try {
      const pids = await Promise.all(
        Array.from({ length: 6 }, () =>
          sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(db.kysely).then((r) => r.rows[0]?.pid),
        ),
      );
      expect(new Set(pids).size).toBeLessThanOrEqual(2);
      await expect(sql`select pg_sleep(2)`.execute(db.kysely)).rejects.toThrow(/statement timeout/);
    } finally {
      await db.close();
    }
  });

  it('lets explicit pool options override the environment', async () => {
    const db = await openDatabase(getUrl(), { env: { PGPOOL_MAX: '1' }, pool: { max: 3 } });
    try {
      const pids = await Promise.all(
        Array.from({ length: 6 }, () =>
          sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.1)`.execute(db.kysely).then((r) => r.rows[0]?.pid),
        ),
      );
      expect(new Set(pids).size).toBeGreaterThan(1);
      expect(new Set(pids).size).toBeLessThanOrEqual(3);
    } finally {
      await db.close();
    }
  });
});

async function pragma(db: Db, name: string): Promise<unknown> {
  const { rows } = await sql<Record<string, unknown>>`pragma ${sql.raw(name)}`.execute(db.kysely);
  return Object.values(rows[0] ?? {})[0];
}

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
