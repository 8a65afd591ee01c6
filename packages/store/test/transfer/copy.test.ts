// `weft copy`'s engine: a whole deployment moved SQLite → PostgreSQL and back, verified by counts,
// checksums and recomputed digests; an interrupted copy resumed; schemas that must not be copied
// refused. Small batches, so every table is read in several keyset pages.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, runMigrations, migrationsFor, type Db } from '../../src/db/index.ts';
import { copyDatabase, CopyVerificationError, TransferError, type TransferProgress } from '../../src/transfer/index.ts';
import { checkTable } from '../../src/transfer/table-check.ts';
import { COPIED_TABLES } from '../../src/transfer/transfer-tables.ts';
import { createPgTestDatabase, describeIfPostgres } from '../dialects.ts';
import { seedEveryTable, type Seeded } from './seed-every-table.ts';

const BATCH = 7;

async function checksOf(db: Db) {
  const out: Record<string, unknown> = {};
  for (const table of COPIED_TABLES) out[table.name] = await checkTable(db, table, { batchSize: 100 });
  return out;
}

describeIfPostgres('copy between SQLite and PostgreSQL', () => {
  let dir: string;
  let source: Db;
  let seeded: Seeded;
  const opened: Array<{ db: Db; drop?: () => Promise<void> }> = [];
  const pgDatabase = async () => {
    const pg = await createPgTestDatabase();
    const db = await openDatabase(pg.url);
    opened.push({ db, drop: () => pg.drop() });
    return db;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-copy-'));
    source = await openDatabase(`sqlite:${join(dir, 'source.sqlite')}`);
    await migrateToLatest(source);
    seeded = await seedEveryTable(source, 'acme/one', 60);
    await seedEveryTable(source, 'globex/two', 10);
  });
  afterAll(async () => {
    await source.close();
    for (const { db, drop } of opened) {
      await db.close();
      await drop?.();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every row SQLite → PostgreSQL, keeping digests and number lexemes, and verifies it', async () => {
    const target = await pgDatabase();
    const events: TransferProgress[] = [];
    const report = await copyDatabase(source, target, { batchSize: BATCH, onProgress: (e) => events.push(e) });
    expect(await checksOf(target)).toEqual(await checksOf(source));
    const byName = Object.fromEntries(report.tables.map((t) => [t.name, t]));
    expect(byName.rows?.rows).toBeGreaterThan(60);
    expect(byName.rows?.inserted).toBe(byName.rows?.rows);
    // `-0.0` (in both projects' `floaty`): the check spells numbers as PostgreSQL's jsonb would, on
    // both sides (postgres-number.ts), which has no negative zero, so that digest cannot be
    // recomputed from either side's spelling; both sides agree.
    expect(byName.objects?.check.digests).toEqual({ checked: 4, mismatched: 2 });
    expect(byName.files?.check.digests).toEqual({ checked: 2, mismatched: 0 });
    expect(byName.tables?.check.digests?.mismatched).toBe(0);
    expect(byName.api_keys?.rows).toBe(2);
    expect(report.skipped.map((s) => s.name)).toEqual(['table_sort_orders']);
    // The value is the text as written: keys in order, numbers as spelt.
    const { rows } = await sql<{ val: string }>`select val::text as val from objects where digest = ${seeded.floatObjectDigest}`.execute(
      target.kysely,
    );
    expect(rows[0]?.val).toContain('{"x":1.0,"big":12345678901234567890,');
    expect(rows[0]?.val).toContain('12345678901234567890');
    expect(rows[0]?.val).toContain('"lr":1e-05,"logprob":-1.2345e-05,"neg":-0.0}');
    // Progress: each copied table starts, reports batches, ends; then verification.
    const copyRows = events.filter((e) => e.phase === 'copy' && e.table === 'rows');
    expect(copyRows[0]).toMatchObject({ state: 'start', done: 0, total: byName.rows?.rows });
    expect(copyRows.filter((e) => e.state === 'rows').length).toBeGreaterThan(5);
    expect(copyRows.at(-1)).toMatchObject({ state: 'end', done: byName.rows?.rows });
    expect(events.some((e) => e.phase === 'verify' && e.state === 'end')).toBe(true);

    // PostgreSQL → SQLite gives the same rows back.
    const back = await openDatabase(`sqlite:${join(dir, 'back.sqlite')}`);
    opened.push({ db: back });
    await copyDatabase(target, back, { batchSize: BATCH });
    expect(await checksOf(back)).toEqual(await checksOf(source));
  });

  it('resumes an interrupted copy after the last key written, and ends with identical checksums', async () => {
    const target = await pgDatabase();
    const stop = new AbortController();
    let batches = 0;
    const first = copyDatabase(source, target, {
      batchSize: BATCH,
      signal: stop.signal,
      onProgress: (e) => {
        // Interrupt in the middle of `rows` (after three of its batches).
        if (e.phase === 'copy' && e.table === 'rows' && e.state === 'rows' && ++batches === 3) stop.abort();
      },
    });
    await expect(first).rejects.toThrow(/aborted/i);
    const partial = await sql<{ n: number }>`select count(*)::int as n from rows`.execute(target.kysely);
    expect(partial.rows[0]?.n).toBe(3 * BATCH);

    const starts: TransferProgress[] = [];
    const report = await copyDatabase(source, target, { batchSize: BATCH, onProgress: (e) => e.state === 'start' && starts.push(e) });
    expect(await checksOf(target)).toEqual(await checksOf(source));
    const rows = report.tables.find((t) => t.name === 'rows');
    // Only what the first run had not written: it started after the target's last key.
    expect(rows?.inserted).toBe((rows?.rows ?? 0) - 3 * BATCH);
    expect(starts.find((e) => e.phase === 'copy' && e.table === 'rows')?.done).toBe(3 * BATCH);
    expect(report.tables.find((t) => t.name === 'objects')?.inserted).toBe(0);
  });

  it('fails verification when the target held different rows under the same keys', async () => {
    const target = await pgDatabase();
    await migrateToLatest(target);
    // Under the source's first key, so the copy (resuming after it) still reads every other row.
    const first = await source.kysely
      .selectFrom('tables')
      .select(['project_id', 'digest'])
      .orderBy('project_id')
      .orderBy('digest')
      .executeTakeFirstOrThrow();
    await target.kysely
      .insertInto('tables')
      .values({ ...first, row_count: 1, created_at: '2020-01-01T00:00:00.000Z' })
      .execute();
    const failure = copyDatabase(source, target, { batchSize: BATCH });
    await expect(failure).rejects.toBeInstanceOf(CopyVerificationError);
    await expect(failure).rejects.toThrow(/tables: same row count \(\d+\) but different contents/);
  });

  it('refuses a source behind this version, and a target a newer Weft migrated', async () => {
    const behind = await openDatabase('sqlite::memory:');
    opened.push({ db: behind });
    const [firstName, firstMigration] = Object.entries(migrationsFor('sqlite'))[0]!;
    await runMigrations(behind, { [firstName]: firstMigration });
    const target = await pgDatabase();
    await expect(copyDatabase(behind, target)).rejects.toThrow(/lacks \d+ migration\(s\).*run `weft migrate`/);

    const empty = await openDatabase('sqlite::memory:');
    opened.push({ db: empty });
    await expect(copyDatabase(empty, target)).rejects.toThrow(/holds no Weft schema/);

    const newer = await pgDatabase();
    await migrateToLatest(newer);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '2030-01-01T00:00:00.000Z')`.execute(
      newer.kysely,
    );
    const refused = copyDatabase(source, newer);
    await expect(refused).rejects.toBeInstanceOf(TransferError);
    await expect(refused).rejects.toThrow(/target database was migrated by a newer Weft \(it has 9999-from-the-future/);
  });
});
