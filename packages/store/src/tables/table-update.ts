// POST /table/update: a new table from a stored one and a list of edits, by Weave's rules
// (trace_server's table_update): starting from the base table's row list, each edit in order —
// `append` adds a row at the end, `insert` puts one at an index (0…length), `pop` removes the row
// at an index (0…length−1); an index out of range refuses the whole request. The new table's
// digest is Weave's (sha256 of its row digests), and `updated_row_digests` lists the digests of
// the rows appended or inserted, in order. The base is untouched; storing the result is
// table/create's (idempotent, safe between replicas).
import { invalidRequest, notFound, tableDigest, TurnClock } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { childNode, encodeValue, listItems, type EncodedValue } from '../objects/value-encoding.ts';
import type { LosslessContext } from '../store.ts';
import { storeTable } from './table-create.ts';

/** The base's row list is held in memory while edited: a bound on how long it may be. */
export const MAX_BASE_ROWS = 1_000_000;

export async function tableUpdate(db: Db, req: T.TableUpdateReq, ctx: LosslessContext): Promise<T.TableUpdateRes> {
  const projectId = req.project_id;
  const base = await db.kysely
    .selectFrom('tables')
    .select('row_count')
    .where('project_id', '=', projectId)
    .where('digest', '=', req.base_digest)
    .executeTakeFirst();
  if (!base) throw notFound(`Table ${req.base_digest} not found`);
  if (base.row_count > MAX_BASE_ROWS) {
    throw invalidRequest(`Table ${req.base_digest} has ${base.row_count} rows; table/update edits tables of at most ${MAX_BASE_ROWS}`);
  }
  const list = await db.readLong<{ row_digest: string }>(
    db.kysely
      .selectFrom('table_rows')
      .select('row_digest')
      .where('project_id', '=', projectId)
      .where('table_digest', '=', req.base_digest)
      .orderBy('row_index')
      .compile(),
  );
  const rowDigests = list.map((r) => r.row_digest);

  const sources = listItems(childNode(ctx.source, 'updates'));
  const added: EncodedValue[] = [];
  const clock = new TurnClock();
  for (const [i, update] of req.updates.entries()) {
    const node = sources?.[i];
    const encode = (kind: 'append' | 'insert', row: unknown) => {
      const encoded = encodeValue(row, childNode(childNode(node, kind), 'row'));
      added.push(encoded);
      return encoded.digest;
    };
    if ('append' in update) rowDigests.push(encode('append', update.append.row));
    else if ('insert' in update) {
      const { index } = update.insert;
      if (index < 0 || index > rowDigests.length)
        throw invalidRequest(`updates[${i}]: insert index ${index} is out of range 0…${rowDigests.length}`);
      rowDigests.splice(index, 0, encode('insert', update.insert.row));
    } else {
      const { index } = update.pop;
      if (index < 0 || index >= rowDigests.length)
        throw invalidRequest(`updates[${i}]: pop index ${index} is out of range 0…${rowDigests.length - 1}`);
      rowDigests.splice(index, 1);
    }
    if (clock.due) await clock.pass();
  }
  const digest = tableDigest(rowDigests);
  // Rows of the base are stored already: only the added ones are written (skipped if present).
  await storeTable(db, projectId, digest, rowDigests, added);
  return { digest, updated_row_digests: added.map((e) => e.digest) };
}
