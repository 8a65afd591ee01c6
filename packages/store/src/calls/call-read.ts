// call/read: one call by primary key. A call that was never started (only its end arrived),
// was deleted, or does not exist is a 404 (the seed contract; Weave answers {call: null}).
import { notFound, type Catalogue, type WeftError } from '@weft/core';
import type * as T from '@weft/types';
import { projectPrices, usageModels } from '../costs/index.ts';
import { compiledOnce } from '../db/compiled-once.ts';
import { readJson, type Db } from '../db/index.ts';
import { deriveSummary } from './derive-summary.ts';
import { callStorageSize, traceStorageSize } from './storage-size.ts';
import { isStarted, toCallSchema } from './to-call-schema.ts';

/** The plain read, the most common by far: compiled once (db/compiled-once.ts). */
const readCall = compiledOnce(['project_id', 'id'], (db, slot) =>
  db.kysely.selectFrom('calls').selectAll('calls').where('project_id', '=', slot.project_id).where('id', '=', slot.id),
);

export async function callRead(db: Db, catalogue: Catalogue, req: T.CallReadReq): Promise<T.CallReadRes> {
  const row =
    req.include_storage_size === true
      ? await db.kysely
          .selectFrom('calls')
          .selectAll('calls')
          .select(callStorageSize(db).as('storage_size_bytes'))
          .where('project_id', '=', req.project_id)
          .where('id', '=', req.id)
          .executeTakeFirst()
      : (await readCall(db, { project_id: req.project_id, id: req.id }))[0];
  if (!row || !isStarted(row) || row.deleted_at !== null) throw callNotFound(req.id);

  const stored = readJson(db, row.summary);
  const costs =
    req.include_costs === true ? { catalogue, prices: await projectPrices(db, row.project_id, usageModels(stored)) } : undefined;
  const summary = deriveSummary({ ...row, summary: stored }, costs);
  const call = toCallSchema(db, row, summary);
  if ('storage_size_bytes' in row) call.storage_size_bytes = Number(row.storage_size_bytes ?? 0);
  if (req.include_total_storage_size === true && row.parent_id === null) {
    call.total_storage_size_bytes = await traceStorageSize(db.kysely, db, row.project_id, row.trace_id);
  }
  return { call };
}

/** What call/read answers for a call that is not there (refs/read_batch too, for one it may not read). */
export function callNotFound(id: string): WeftError {
  return notFound(`Call ${id} not found`);
}
