// POST /table/create: stores a table as its ordered list of row digests, each row once per
// project.
//
// Idempotent and safe between replicas: the `tables` row is inserted first with ON CONFLICT DO
// NOTHING. On PostgreSQL a second transaction inserting the same table waits there for the first
// to finish; if it committed, the table is complete (rows and list commit together) and there is
// nothing left to do. Rows are inserted in digest order, so transactions storing overlapping rows
// for different tables take the row locks in one global order and cannot deadlock.
import { digestMismatch, invalidRequest, JsonNumber, JsonText, tableDigest, TurnClock } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import { childNode, encodeValue, listItems, type EncodedValue } from '../objects/value-encoding.ts';
import type { LosslessContext } from '../store.ts';
import { insertRowList, insertRowValues } from './table-rows-insert.ts';
import { analyzeAfterCreate } from './row-values.ts';
import { sortByDigest } from './digest-order.ts';

export async function tableCreate(db: Db, req: T.TableCreateReq, ctx: LosslessContext): Promise<T.TableCreateRes> {
  const projectId = req.table.project_id;
  const rows: readonly unknown[] = req.table.rows;
  if (!Array.isArray(rows)) throw invalidRequest('table.rows must be a list of objects');
  const sourceRows = listItems(childNode(childNode(ctx.source, 'table'), 'rows'));
  const nodes = sourceRows?.length === rows.length ? sourceRows : undefined;

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

  await storeTable(db, projectId, digest, rowDigests, encoded);
  return { digest, row_digests: rowDigests };
}

/**
 * Stores a table: its `tables` row, the row contents not stored yet (`values`, any order, repeats
 * allowed) and its ordered list. Re-creating a stored table (the common retry) writes nothing.
 */
export async function storeTable(
  db: Db,
  projectId: string,
  digest: string,
  rowDigests: readonly string[],
  values: readonly EncodedValue[],
): Promise<void> {
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
        await insertRowValues(trx, db, projectId, uniqueInDigestOrder(values));
        await insertRowList(trx, db, projectId, digest, rowDigests);
      });
    await analyzeAfterCreate(db, rowDigests.length);
  }
}

function isJsonObject(value: unknown): boolean {
  if (value instanceof JsonText) return value.isObject;
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}

/** Each distinct row once, in digest order (see the header). */
function uniqueInDigestOrder(encoded: readonly EncodedValue[]): EncodedValue[] {
  const unique = new Map<string, EncodedValue>();
  for (const e of encoded) if (!unique.has(e.digest)) unique.set(e.digest, e);
  return sortByDigest([...unique.values()]);
}
