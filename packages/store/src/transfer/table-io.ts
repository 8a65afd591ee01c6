// Reading and writing one table's rows in bounded batches, the same way for every table.
//
// Reads are keyset pages in primary-key order: each batch is one range read on the primary key
// (`(k1, k2, …) > (last row's key)`), so a batch costs the same at the start and at the end of a
// table and nothing ever holds a whole table. Text keys compare byte-wise in both databases
// (COLLATE "C" in PostgreSQL), so both read in the same order and a copy can resume after the
// target's last key. Writes insert with ON CONFLICT DO NOTHING: a batch written twice (a rerun
// after an interruption) changes nothing.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Db } from '../db/db.ts';
import { maxBindParameters } from '../db/dialect-helpers.ts';
import { refreshPlannerStatistics } from '../db/dialect-planner.ts';
import type { Database } from '../db/schema.ts';
import { insertValues, rowBytes, selectList, type RawRow } from './row-codec.ts';
import type { TransferTable } from './transfer-tables.ts';

// Tables are named at run time here, so the typed schema cannot help; transfer-tables.ts is
// checked against it instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyKysely = Kysely<any>;
const untyped = (kysely: Kysely<Database>): AnyKysely => kysely;

/** About this many bytes per batch: a table of 1 MB trajectories gets small batches. */
const BATCH_BYTES = 16 * 1024 * 1024;
/** The first batch of a table, before its row size is known. */
const FIRST_BATCH = 50;

export interface ReadOptions {
  /** Only this project's rows. */
  projectId?: string | undefined;
  /** Start after this key (its values in key order); undefined: from the first row. */
  after?: readonly unknown[] | undefined;
  /** Most rows per batch. */
  batchSize: number;
}

const keyTuple = (table: TransferTable) => sql.join(table.key.map((column) => sql.ref(column)));

/** `table`'s rows in key order, a bounded batch at a time. */
export async function* readBatches(db: Db, table: TransferTable, opts: ReadOptions): AsyncGenerator<RawRow[]> {
  let after = opts.after;
  let limit = Math.min(opts.batchSize, FIRST_BATCH);
  for (;;) {
    let query = untyped(db.kysely)
      .selectFrom(table.name)
      .select(selectList(db.dialect, table))
      .$if(opts.projectId !== undefined, (q) => q.where('project_id', '=', opts.projectId));
    if (after) query = query.where(sql<SqlBool>`(${keyTuple(table)}) > (${sql.join(after)})`);
    for (const column of table.key) query = query.orderBy(column);
    const rows = (await query.limit(limit).execute()) as RawRow[];
    // better-sqlite3 answers synchronously, so a chain of awaited queries (a table per project,
    // batch after batch) would never let timers run: a turn per batch keeps the loop responsive.
    await nextTurn();
    if (rows.length === 0) return;
    const last = rows[rows.length - 1] as RawRow;
    const full = rows.length === limit;
    const bytes = rows.reduce((n, row) => n + rowBytes(row), 0);
    yield rows;
    if (!full) return;
    after = table.key.map((column) => last[column]);
    limit = Math.max(1, Math.min(opts.batchSize, Math.floor(BATCH_BYTES / (bytes / rows.length))));
  }
}

/** The key of `table`'s last row in key order (optionally within a project); undefined when empty. */
export async function lastKey(db: Db, table: TransferTable, projectId?: string): Promise<unknown[] | undefined> {
  let query = untyped(db.kysely)
    .selectFrom(table.name)
    .select(table.key.map((column) => sql.ref(column).as(column)))
    .$if(projectId !== undefined, (q) => q.where('project_id', '=', projectId));
  for (const column of table.key) query = query.orderBy(column, 'desc');
  const row = await query.limit(1).executeTakeFirst();
  return row && table.key.map((column) => row[column]);
}

export async function countRows(db: Db, table: TransferTable, projectId?: string): Promise<number> {
  const row = await untyped(db.kysely)
    .selectFrom(table.name)
    .select(sql<number | string>`count(*)`.as('n'))
    .$if(projectId !== undefined, (q) => q.where('project_id', '=', projectId))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether `table` holds a row of `projectId` (one index probe, unlike a count). */
export async function holdsRows(db: Db, table: TransferTable, projectId: string): Promise<boolean> {
  const row = await untyped(db.kysely)
    .selectFrom(table.name)
    .select(sql`1`.as('one'))
    .where('project_id', '=', projectId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts the rows that are not there yet, in one transaction; resolves how many were new. */
export async function writeBatch(db: Db, table: TransferTable, rows: readonly RawRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  // Within the bound-parameter limit: one parameter per cell (JSON included: `cast(? as jsonb)`).
  const perStatement = Math.max(1, Math.floor(maxBindParameters(db) / Object.keys(table.columns).length));
  return db.kysely.transaction().execute(async (trx) => {
    let inserted = 0;
    for (let i = 0; i < rows.length; i += perStatement) {
      const values = rows.slice(i, i + perStatement).map((row) => insertValues(db.dialect, table, row));
      const result = await untyped(trx)
        .insertInto(table.name)
        .values(values)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return inserted;
  });
}

/**
 * After a bulk load: PostgreSQL's planner has no statistics for the new rows until autovacuum
 * gets to them, and plans some reads badly without them (see tables/row-values.ts), so analyze now.
 */
export async function refreshStatistics(db: Db): Promise<void> {
  await refreshPlannerStatistics(db);
}
