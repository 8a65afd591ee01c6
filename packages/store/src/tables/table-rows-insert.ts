// The INSERTs behind a stored table, shared by /table/create and the trajectory log (whose
// trajectories form a table): row contents, each once per project, and the ordered list.
//
// Bounds on one INSERT: the JSON text of its rows, the digests of its part of the list. On SQLite
// each statement holds the event loop while it runs (better-sqlite3 is synchronous), so they are
// small there, and the loop gets a turn between them.
import { sql, type Transaction } from 'kysely';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database, Db } from '../db/index.ts';
import { jsonArrayElements, jsonStringArrayElements } from '../db/dialect-json-arrays.ts';
import { statementsHoldEventLoop } from '../db/dialect-event-loop.ts';
import type { EncodedValue } from '../objects/value-encoding.ts';

const maxChunkChars = (db: Db): number => (statementsHoldEventLoop(db) ? 1 << 20 : 8 << 20);
const maxChunkDigests = (db: Db): number => (statementsHoldEventLoop(db) ? 10_000 : 50_000);

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
  // One JSON array of [digest, row] pairs per statement; the row text is already valid JSON.
  const maxChars = maxChunkChars(db);
  for (let start = 0; start < values.length;) {
    let end = start;
    let chars = 0;
    while (end < values.length && (end === start || chars + (values[end] as EncodedValue).text.length <= maxChars)) {
      chars += (values[end] as EncodedValue).text.length + 50;
      end++;
    }
    const pairs = values.slice(start, end).map((e) => `[${JSON.stringify(e.digest)},${e.text}]`);
    const elements = jsonArrayElements(db.dialect, `[${pairs.join(',')}]`);
    await trx
      .insertInto('rows')
      .columns(['project_id', 'digest', 'val'])
      // `where true`: SQLite would otherwise read ON CONFLICT as a join constraint.
      .expression(sql`select cast(${projectId} as text), value ->> 0, value -> 1 from ${elements} as e where true`)
      .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing())
      .execute();
    start = end;
    if (statementsHoldEventLoop(db)) await nextTurn();
  }
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
