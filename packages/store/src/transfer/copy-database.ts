// `weft copy`: moves a whole deployment to another database (SQLite → PostgreSQL, or back), table
// by table in bounded batches, then verifies it.
//
// Resumable: every batch commits on its own and is written with ON CONFLICT DO NOTHING, and a
// rerun starts each table after the target's last key (tables are read in key order, so what an
// interrupted run wrote is a prefix of each table). A target that held rows of its own could
// hide source rows behind that shortcut: `resume: false` reads everything again, and the final
// verification (counts, checksums, recomputed digests per table) fails loudly either way.
import type { Db } from '../db/db.ts';
import { DEFAULT_BATCH_SIZE, tableProgress, type TransferOptions } from './progress.ts';
import { TransferError } from './row-codec.ts';
import { assertCurrentSchema, prepareTarget } from './schema-state.ts';
import { checkTable, compareChecks, type CheckDifference, type TableCheck } from './table-check.ts';
import { countRows, lastKey, readBatches, refreshStatistics, writeBatch } from './table-io.ts';
import { COPIED_TABLES, TRANSFER_TABLES, type TransferTable } from './transfer-tables.ts';

export interface CopyOptions extends TransferOptions {
  /** Start each table after the target's last key (default true); false reads every source row. */
  resume?: boolean | undefined;
}

export interface CopiedTable {
  name: string;
  /** Rows in the source. */
  rows: number;
  /** Rows this run inserted (the others were there already). */
  inserted: number;
  /** The verification: the source's check, equal to the target's. */
  check: TableCheck;
}

export interface CopyReport {
  tables: CopiedTable[];
  /** Tables left out on purpose, and why. */
  skipped: { name: string; reason: string }[];
  seconds: number;
}

export class CopyVerificationError extends TransferError {
  constructor(readonly differences: CheckDifference[]) {
    super(
      `The copy does not match its source:\n${differences.map((d) => `  - ${d.table}: ${d.what}`).join('\n')}\n` +
        'If the target held data before the copy, copy into an empty database; if a run was interrupted, rerun it ' +
        '(with --no-resume to read every row again).',
    );
  }
}

export async function copyDatabase(source: Db, target: Db, opts: CopyOptions = {}): Promise<CopyReport> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  await assertCurrentSchema(source, 'source');
  await prepareTarget(target, 'target');

  const copied = new Map<string, { total: number; inserted: number }>();
  for (const table of COPIED_TABLES) {
    opts.signal?.throwIfAborted();
    copied.set(table.name, await copyTable(source, target, table, { ...opts, batchSize }));
  }
  await refreshStatistics(target);

  const tables: CopiedTable[] = [];
  const differences: CheckDifference[] = [];
  for (const table of COPIED_TABLES) {
    const { total, inserted } = copied.get(table.name) ?? { total: undefined, inserted: 0 };
    const [fromSource, fromTarget] = await Promise.all([
      checkTable(source, table, { batchSize, signal: opts.signal }),
      verifyPass(target, table, total, batchSize, opts),
    ]);
    differences.push(...compareChecks(table.name, fromSource, fromTarget, ['source', 'target']));
    tables.push({ name: table.name, rows: fromSource.rows, inserted, check: fromSource });
  }
  if (differences.length > 0) throw new CopyVerificationError(differences);
  return { tables, skipped: skippedTables(), seconds: (performance.now() - started) / 1000 };
}

async function copyTable(
  source: Db,
  target: Db,
  table: TransferTable,
  opts: CopyOptions & { batchSize: number },
): Promise<{ total: number; inserted: number }> {
  const total = await countRows(source, table);
  const after = opts.resume === false ? undefined : await lastKey(target, table);
  // Where a resumed table starts: the rows already there (a prefix of the source, normally).
  let done = after ? Math.min(total, await countRows(target, table)) : 0;
  const progress = tableProgress(opts, 'copy', table.name, total, done);
  let inserted = 0;
  for await (const batch of readBatches(source, table, { after, batchSize: opts.batchSize })) {
    opts.signal?.throwIfAborted();
    inserted += await writeBatch(target, table, batch);
    done += batch.length;
    progress.rows(done);
  }
  progress.end(done);
  return { total, inserted };
}

// The target's pass reports progress; the source's runs beside it over the same rows.
async function verifyPass(db: Db, table: TransferTable, total: number | undefined, batchSize: number, opts: TransferOptions) {
  const progress = tableProgress(opts, 'verify', table.name, total);
  const check = await checkTable(db, table, { batchSize, signal: opts.signal, onRows: (n) => progress.rows(n) });
  progress.end(check.rows);
  return check;
}

function skippedTables(): { name: string; reason: string }[] {
  return TRANSFER_TABLES.filter((t) => t.scope === 'cache').map((t) => ({
    name: t.name,
    reason: 'a cache, rebuilt by the target on first use',
  }));
}
