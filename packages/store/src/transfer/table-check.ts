// What a transfer compares between two databases (or a database and an export's checksums): per
// table, the row count and a checksum over normalised rows (row-codec.ts: rowHash), and for the
// content-addressed tables the digests recomputed from the content with @weft/core's digest
// module: objects and rows from their JSON (Weave's digest), files from their bytes, tables from
// their row lists. A recomputed digest can differ from a stored one that was right when written
// (a NaN stored as null; `1e2`, which Weave hashes as a float and PostgreSQL stores as `100`:
// the recomputation spells numbers as PostgreSQL does on both sides, see postgres-number.ts), so
// the mismatches are counted and compared between both sides rather than required to be zero.
import { compareCodePoints, digestBytes, TurnClock } from '@weft/core';
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { addHash, checksumHex, rowHash, type RawRow } from './row-codec.ts';
import { readBatches } from './table-io.ts';
import { transferTable, type TransferTable } from './transfer-tables.ts';

export interface TableCheck {
  rows: number;
  /** 32 hex digits: the sum of the rows' hashes modulo 2^128. */
  checksum: string;
  /** Content-addressed tables: how many digests were recomputed, and how many differ from the stored one. */
  digests?: { checked: number; mismatched: number };
}

export interface CheckOptions {
  projectId?: string | undefined;
  batchSize: number;
  signal?: AbortSignal | undefined;
  /** Called after each batch with the rows read so far. */
  onRows?: (rows: number) => void;
  /** Called with each batch as read, before it is checked (the exporter writes it out). */
  onBatch?: (rows: RawRow[]) => Promise<void>;
}

/** The tables whose `digest` is computable from a row alone: Weave's digest of the value, or of the bytes. */
// `json`: the JSON cells' Weave digests, computed by rowHash anyway.
const RECOMPUTE: Readonly<Record<string, (row: RawRow, json: Record<string, string>) => string | undefined>> = {
  objects: (_row, json) => json.val,
  rows: (_row, json) => json.val,
  files: (row) => digestBytes(row.content as Buffer),
};

export async function checkTable(db: Db, table: TransferTable, opts: CheckOptions): Promise<TableCheck> {
  let rows = 0;
  let sum = 0n;
  let checked = 0;
  let mismatched = 0;
  const clock = new TurnClock();
  const tableDigests = table.name === 'tables' ? tableListDigests(db, opts) : undefined;
  const recompute = Object.hasOwn(RECOMPUTE, table.name) ? RECOMPUTE[table.name] : undefined;
  for await (const batch of readBatches(db, table, opts)) {
    opts.signal?.throwIfAborted();
    await opts.onBatch?.(batch);
    for (const row of batch) {
      const json: Record<string, string> = {};
      sum = addHash(sum, rowHash(table, row, json));
      const digest = tableDigests ? await tableDigests.digestOf(row) : recompute?.(row, json);
      if (digest !== undefined) {
        checked++;
        if (digest !== row.digest) mismatched++;
      }
      // Hashing large JSON is CPU work: give the event loop its turns (progress, signals).
      if (clock.due) await clock.pass();
    }
    rows += batch.length;
    opts.onRows?.(rows);
  }
  const digestable = tableDigests !== undefined || recompute !== undefined;
  return { rows, checksum: checksumHex(sum), ...(digestable ? { digests: { checked, mismatched } } : {}) };
}

/**
 * Recomputes each table's digest (sha256 of its row digests in row order, as tables/table-create.ts
 * and Weave do) and its row count, by reading `table_rows` alongside `tables`: both are in key
 * order, so it is a merge of two sorted streams, with one table's list hashed incrementally.
 */
function tableListDigests(db: Db, opts: CheckOptions) {
  const tableRows = transferTable('table_rows') as TransferTable;
  const lists = readBatches(db, tableRows, opts);
  let buffer: RawRow[] = [];
  let at = 0;
  let exhausted = false;
  const peek = async (): Promise<RawRow | undefined> => {
    while (at >= buffer.length && !exhausted) {
      const next = await lists.next();
      if (next.done) exhausted = true;
      else [buffer, at] = [next.value, 0];
    }
    return buffer[at];
  };
  const order = (a: RawRow, b: RawRow) =>
    compareCodePoints(a.project_id as string, b.project_id as string) ||
    compareCodePoints(a.table_digest as string, b.table_digest as string);
  return {
    /** The digest `row` (of `tables`) should have, with a row_count check folded in. */
    async digestOf(row: RawRow): Promise<string> {
      const key = { project_id: row.project_id, table_digest: row.digest };
      // Lists without a `tables` row (none are written so) are skipped.
      for (let next = await peek(); next && order(next, key) < 0; next = await peek()) at++;
      const hash = createHash('sha256');
      let count = 0;
      for (let next = await peek(); next && order(next, key) === 0; next = await peek()) {
        hash.update(next.row_digest as string);
        count++;
        at++;
      }
      const digest = hash.digest('hex');
      return count === row.row_count ? digest : `${digest} (${count} rows, not ${String(row.row_count)})`;
    },
  };
}

export interface CheckDifference {
  table: string;
  what: string;
}

/** What differs between two checks of one table; empty when they agree. */
export function compareChecks(table: string, a: TableCheck, b: TableCheck, names: [string, string]): CheckDifference[] {
  const out: CheckDifference[] = [];
  if (a.rows !== b.rows) out.push({ table, what: `${a.rows} rows in the ${names[0]}, ${b.rows} in the ${names[1]}` });
  else if (a.checksum !== b.checksum) out.push({ table, what: `same row count (${a.rows}) but different contents (checksums differ)` });
  const [da, db] = [a.digests?.mismatched ?? 0, b.digests?.mismatched ?? 0];
  if (da !== db)
    out.push({ table, what: `${da} recomputed digest(s) differ from the stored ones in the ${names[0]}, ${db} in the ${names[1]}` });
  return out;
}

/** Sums per-project checks of one table (checksums add: see rowHash). */
export function sumChecks(checks: readonly TableCheck[]): TableCheck {
  let sum = 0n;
  let rows = 0;
  let checked = 0;
  let mismatched = 0;
  let digestable = false;
  for (const c of checks) {
    sum = addHash(sum, BigInt(`0x${c.checksum}`));
    rows += c.rows;
    if (c.digests) {
      digestable = true;
      checked += c.digests.checked;
      mismatched += c.digests.mismatched;
    }
  }
  return { rows, checksum: checksumHex(sum), ...(digestable ? { digests: { checked, mismatched } } : {}) };
}
