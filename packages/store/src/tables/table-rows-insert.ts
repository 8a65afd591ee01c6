// The INSERTs behind a stored table, shared by /table/create and the trajectory log (whose
// trajectories form a table): row contents, each once per project, and the ordered list.
//
// Bounds on one INSERT: the JSON text of its rows, the digests of its part of the list. On SQLite
// each statement holds the event loop while it runs (better-sqlite3 is synchronous), so they are
// small there, and the loop gets a turn between them.
//
// Row contents are bound as parameters, a power-of-two count of rows per statement compiled once
// (db/compiled-once.ts), so a few statement texts serve every table: packing them into one JSON
// array per statement made each database parse every row's text out of the array and render it
// again (BENCHMARKS.md, "table/create's rows bound").
import { sql, type Transaction } from 'kysely';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { compiledOnceByPosition, type CompiledRun } from '../db/compiled-once.ts';
import { jsonTextAsWrittenSql, maxBindParameters, type Database, type Db } from '../db/index.ts';
import { jsonStringArrayElements } from '../db/dialect-json-arrays.ts';
import { statementsHoldEventLoop } from '../db/dialect-event-loop.ts';
import type { EncodedValue } from '../objects/value-encoding.ts';

const maxChunkChars = (db: Db): number => (statementsHoldEventLoop(db) ? 1 << 20 : 8 << 20);
const maxChunkDigests = (db: Db): number => (statementsHoldEventLoop(db) ? 10_000 : 50_000);

/** Rows per INSERT of contents, at most: a power of two; 3 parameters each, well within both databases' limits. */
const MAX_ROWS_PER_STATEMENT = 2048;

/**
 * Row contents in the order given, skipping rows already stored. Concurrent writers of
 * overlapping rows must each give them in one global order (PostgreSQL row locks): /table/create
 * sorts by digest; a log's rows are unique to their position (see trajectory-table.ts).
 */
export async function insertRowValues(
  trx: Transaction<Database>,
  db: Db,
  projectId: string,
  values: readonly EncodedValue[],
): Promise<void> {
  const maxChars = maxChunkChars(db);
  const maxRows = Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(maxBindParameters(db) / 3));
  for (let start = 0; start < values.length;) {
    let fit = 0;
    let chars = 0;
    while (start + fit < values.length && fit < maxRows && (fit === 0 || chars + values[start + fit]!.text.length <= maxChars)) {
      chars += values[start + fit]!.text.length;
      fit++;
    }
    // The largest power of two that fits: a handful of statement shapes for any table.
    const size = 2 ** Math.floor(Math.log2(fit));
    // An EncodedValue's text was refused already if unstorable (U+0000 included): encodeValue.
    const bound: unknown[] = [];
    for (let i = start; i < start + size; i++) bound.push(projectId, values[i]!.digest, values[i]!.text);
    await rowInsert(size)(db, bound, trx);
    start += size;
    if (statementsHoldEventLoop(db)) await nextTurn();
  }
}

const rowInserts = new Map<number, CompiledRun<readonly unknown[], unknown>>();

/** The INSERT of `size` row contents, compiled once per database. */
function rowInsert(size: number): CompiledRun<readonly unknown[], unknown> {
  let run = rowInserts.get(size);
  if (!run) {
    const names = Array.from({ length: size }, (_, r) => [`${r}.project_id`, `${r}.digest`, `${r}.val`]).flat();
    run = compiledOnceByPosition(names, (db, markers) =>
      db.kysely
        .insertInto('rows')
        .values(
          Array.from({ length: size }, (_, r) => ({
            project_id: markers[3 * r]!,
            digest: markers[3 * r + 1]!,
            val: jsonTextAsWrittenSql(db, markers[3 * r + 2]!),
          })),
        )
        .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing()),
    );
    rowInserts.set(size, run);
  }
  return run;
}

/** The ordered list, duplicates included; row_index is the position, so pages are range reads. */
export async function insertRowList(
  trx: Transaction<Database>,
  db: Db,
  projectId: string,
  tableDigestValue: string,
  rowDigests: readonly string[],
): Promise<void> {
  const size = maxChunkDigests(db);
  for (let start = 0; start < rowDigests.length; start += size) {
    if (start > 0 && statementsHoldEventLoop(db)) await nextTurn();
    const elements = jsonStringArrayElements(db.dialect, JSON.stringify(rowDigests.slice(start, start + size)));
    await trx
      .insertInto('table_rows')
      .columns(['project_id', 'table_digest', 'row_index', 'row_digest'])
      .expression(
        sql`select cast(${projectId} as text), cast(${tableDigestValue} as text), idx + ${start}, value from ${elements} as e where true`,
      )
      // Idempotent even if two writers ever got here for one table.
      .onConflict((oc) => oc.columns(['project_id', 'table_digest', 'row_index']).doNothing())
      .execute();
  }
}
