// call/update: renames a call (its display_name). Only a visible call can be renamed: one that
// has started and is not deleted; anything else is a 404, as for call/read.
import { invalidRequest, notFound } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';

/** Weave's limit, also in the spec; checked here too so the store holds the rule. */
const MAX_DISPLAY_NAME = 1024;

export async function callUpdate(db: Db, req: T.CallUpdateReq): Promise<T.Empty> {
  if ([...req.display_name].length > MAX_DISPLAY_NAME) {
    throw invalidRequest(`display_name is longer than ${MAX_DISPLAY_NAME} characters`);
  }
  // One conditional UPDATE, so a concurrent delete cannot slip between a check and the write.
  const result = await db.kysely
    .updateTable('calls')
    .set({ display_name: req.display_name })
    .where('project_id', '=', req.project_id)
    .where('id', '=', req.call_id)
    .where('started_at', 'is not', null)
    .where('op_name', 'is not', null)
    .where('trace_id', 'is not', null)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound(`Call ${req.call_id} not found`);
  return {};
}
