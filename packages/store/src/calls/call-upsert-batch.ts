// call/upsert_batch: starts and ends applied in order in ONE transaction, so a failing item
// (an invalid datetime, a database error) leaves none of the batch behind.
//
// A start followed at once by its own end (what an SDK sends for a call that ended before its
// batch left, and what the router records) is one whole row, and consecutive whole calls share a
// statement: the result is the same as applying the two halves in order, at a fraction of the
// statements. Any other item is one statement of its own half, in order.
import { invalidRequest, TurnClock } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { statementsHoldEventLoop } from '../db/dialect-event-loop.ts';
import { checkAgainstStart, callEnd, endRow } from './call-end.ts';
import { upsertCallRows, WHOLE_COLUMNS, type CallRow } from './call-rows.ts';
import { callStart, startRow } from './call-start.ts';

/** Whole calls per statement: ~23 parameters each, well under both databases' limits. */
const ROWS_PER_STATEMENT = 100;

type Item = T.CallUpsertBatchReq['batch'][number];

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
    // Whole calls waiting for their statement, and their keys: a call repeated goes in the next one.
    const wholes: CallRow[] = [];
    const keys = new Set<string>();
    const flush = async () => {
      await upsertCallRows(db, trx, wholes.splice(0), WHOLE_COLUMNS);
      keys.clear();
    };
    const { batch } = req;
    for (let i = 0; i < batch.length; i++) {
      // better-sqlite3 is synchronous: without a turn now and then, a large batch would hold the
      // event loop for its whole length (other statements wait for the transaction meanwhile).
      if (statementsHoldEventLoop(db) && clock.due) await clock.pass();
      const item = batch[i]!;
      const end = endOf(item, batch[i + 1]);
      if (end) {
        const start = startRow((item as Extract<Item, { mode: 'start' }>).req.start, user);
        checkAgainstStart(end, start);
        const key = `${start.project_id}\n${start.id}`;
        if (keys.has(key)) await flush();
        // The start's expiry wins over the one an end alone would stamp, as in the two-step order.
        wholes.push({ ...endRow(end), ...start });
        keys.add(key);
        if (wholes.length >= ROWS_PER_STATEMENT) await flush();
        res.push({ id: start.id, trace_id: start.trace_id }, {});
        i++;
        continue;
      }
      await flush();
      if (item.mode === 'start') {
        res.push(await callStart(trx, db, item.req.start, user));
      } else {
        await callEnd(trx, db, item.req.end);
        res.push({});
      }
    }
    await flush();
    return { res };
  });
}

/** The end that completes `item` when `item` is a start with an id and `next` is that call's end. */
function endOf(item: Item, next: Item | undefined): T.EndedCall | undefined {
  if (item.mode !== 'start' || next?.mode !== 'end') return undefined;
  const { start } = item.req;
  const { end } = next.req;
  return start.id !== undefined && start.id !== null && end.id === start.id && end.project_id === start.project_id ? end : undefined;
}
