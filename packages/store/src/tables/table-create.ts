// POST /table/create: stores a table as its ordered list of row digests, each row once per
// project.
//
// Idempotent and safe between replicas: the `tables` row is inserted first with ON CONFLICT DO
// NOTHING. On PostgreSQL a second transaction inserting the same table waits there for the first
// to finish; if it committed, the table is complete (rows and list commit together) and there is
// nothing left to do. Rows are inserted in digest order, so transactions storing overlapping rows
// for different tables take the row locks in one global order and cannot deadlock.
import { digestMismatch, invalidRequest, JsonNumber, tableDigest, TurnClock } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type Transaction } from 'kysely';
import { nowIso, type Database, type Db } from '../db/index.ts';
import { childNode, encodeValue, type EncodedValue } from '../objects/value-encoding.ts';
import type { LosslessContext } from '../store.ts';
import { jsonArrayElements, jsonStringArrayElements } from '../db/dialect-json-arrays.ts';
import { analyzeAfterCreate } from './row-values.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

// Bounds on one INSERT: the JSON text of its rows, the digests of its part of the list. On SQLite
// each statement holds the event loop while it runs (better-sqlite3 is synchronous), so they are
// small there, and the loop gets a turn between them.
const MAX_CHUNK_CHARS = { sqlite: 1 << 20, postgres: 8 << 20 } as const;
const MAX_CHUNK_DIGESTS = { sqlite: 10_000, postgres: 50_000 } as const;

export async function tableCreate(db: Db, req: T.TableCreateReq, ctx: LosslessContext): Promise<T.TableCreateRes> {
  const projectId = req.table.project_id;
  const rows: readonly unknown[] = req.table.rows;
  if (!Array.isArray(rows)) throw invalidRequest('table.rows must be a list of objects');
  const sourceRows = childNode(childNode(ctx.source, 'table'), 'rows');
  const nodes = Array.isArray(sourceRows) && sourceRows.length === rows.length ? sourceRows : undefined;

  const encoded: EncodedValue[] = [];
  const clock = new TurnClock();
  for (let i = 0; i < rows.length; i++) {
    const row: unknown = rows[i];
    const node = nodes?.[i];
    if (!isJsonObject(node === undefined ? row : node)) throw invalidRequest(`table.rows[${i}] must be an object`);
    encoded.push(encodeValue(row, node));
    if (clock.due) await clock.pass();
  }
  const rowDigests = encoded.map((e) => e.digest);
  const digest = tableDigest(rowDigests);
  const expected = req.table.expected_digest;
  if (expected != null && expected !== digest) throw digestMismatch(expected, digest);

  // Re-creating a stored table (the common retry) writes nothing.
  const stored = await db.kysely
    .selectFrom('tables')
    .select('digest')
    .where('project_id', '=', projectId)
    .where('digest', '=', digest)
    .executeTakeFirst();
  if (!stored) {
    // READ COMMITTED whatever the server's default: after waiting on a concurrent insert of the
    // same table, ON CONFLICT must see it rather than fail to serialise.
    await db.kysely
      .transaction()
      .setIsolationLevel('read committed')
      .execute(async (trx) => {
        const created = await trx
          .insertInto('tables')
          .values({ project_id: projectId, digest, row_count: rowDigests.length, created_at: nowIso() })
          .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing())
          .returning('digest')
          .executeTakeFirst();
        if (!created) return; // another writer stored it meanwhile
        await insertRows(trx, db, projectId, encoded);
        await insertRowList(trx, db, projectId, digest, rowDigests);
      });
    await analyzeAfterCreate(db, rowDigests.length);
  }
  return { digest, row_digests: rowDigests };
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}

/** Each distinct row once, in digest order (see the header), skipping rows already stored. */
async function insertRows(trx: Transaction<Database>, db: Db, projectId: string, encoded: readonly EncodedValue[]): Promise<void> {
  const unique = new Map<string, EncodedValue>();
  for (const e of encoded) if (!unique.has(e.digest)) unique.set(e.digest, e);
  const sorted = [...unique.values()].sort((a, b) => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0));

  // One JSON array of [digest, row] pairs per statement; the row text is already valid JSON.
  for (let start = 0; start < sorted.length;) {
    let end = start;
    let chars = 0;
    while (end < sorted.length && (end === start || chars + (sorted[end] as EncodedValue).text.length <= MAX_CHUNK_CHARS[db.dialect])) {
      chars += (sorted[end] as EncodedValue).text.length + 50;
      end++;
    }
    const pairs = sorted.slice(start, end).map((e) => `[${JSON.stringify(e.digest)},${e.text}]`);
    const elements = jsonArrayElements(db.dialect, `[${pairs.join(',')}]`);
    await trx
      .insertInto('rows')
      .columns(['project_id', 'digest', 'val'])
      // `where true`: SQLite would otherwise read ON CONFLICT as a join constraint.
      .expression(sql`select cast(${projectId} as text), value ->> 0, value -> 1 from ${elements} as e where true`)
      .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing())
      .execute();
    start = end;
    if (db.dialect === 'sqlite') await nextTurn();
  }
}

/** The ordered list, duplicates included; row_index is the position, so pages are range reads. */
async function insertRowList(
  trx: Transaction<Database>,
  db: Db,
  projectId: string,
  tableDigestValue: string,
  rowDigests: readonly string[],
): Promise<void> {
  const size = MAX_CHUNK_DIGESTS[db.dialect];
  for (let start = 0; start < rowDigests.length; start += size) {
    if (start > 0 && db.dialect === 'sqlite') await nextTurn();
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
