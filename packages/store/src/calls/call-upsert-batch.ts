// call/upsert_batch: starts and ends applied in order in ONE transaction, so a failing item
// (an invalid datetime, a database error) leaves none of the batch behind.
//
// One statement per item: a start and its end often travel in the same batch, and a multi-row
// upsert touching the same key twice is an error in PostgreSQL.
import { invalidRequest, TurnClock } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { callEnd } from './call-end.ts';
import { callStart } from './call-start.ts';

export async function callUpsertBatch(db: Db, req: T.CallUpsertBatchReq, user: string): Promise<T.CallUpsertBatchRes> {
  // Check every mode before writing anything (the HTTP layer validates too; this is the store's rule).
  req.batch.forEach((item, i) => {
    const mode: unknown = item.mode;
    if (mode !== 'start' && mode !== 'end') throw invalidRequest(`batch[${i}].mode must be "start" or "end", got ${JSON.stringify(mode)}`);
  });
  if (req.batch.length === 0) return { res: [] };

  return db.kysely.transaction().execute(async (trx) => {
    const res: T.CallUpsertBatchRes['res'] = [];
    const clock = new TurnClock();
    for (const item of req.batch) {
      // better-sqlite3 is synchronous: without a turn now and then, a large batch would hold the
      // event loop for its whole length (other statements wait for the transaction meanwhile).
      if (db.dialect === 'sqlite' && clock.due) await clock.pass();
      if (item.mode === 'start') {
        res.push(await callStart(trx, db, item.req.start, user));
      } else {
        await callEnd(trx, db, item.req.end);
        res.push({});
      }
    }
    return { res };
  });
}
