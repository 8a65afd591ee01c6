// feedback/batch/create: Weave's Python SDK sends its reactions, notes and scores here, each with
// an id it made (a UUIDv7), and never reads the answer. Every item is checked as feedback/create
// checks one before anything is written; the batch is one transaction (all or none). The client's
// ids are kept: an item sent again with its id (a retry) is idempotent, while the same id with
// other content is a 409 rather than a silent overwrite or drop.
import { conflict, invalidRequest, pyJsonDumpsValue } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, readJson, type Db } from '../db/index.ts';
import { checkFeedbackLinks } from './annotation-check.ts';
import { feedbackRow } from './feedback-row.ts';
import { validateFeedback } from './validate-feedback.ts';

/** `single`: the batch is feedback/create's one item (errors then name `body`, not `body.batch.0`). */
export async function feedbackBatchCreate(
  db: Db,
  req: T.FeedbackCreateBatchReq,
  user: string,
  single = false,
): Promise<T.FeedbackCreateBatchRes> {
  const seen = new Set<string>();
  for (const item of req.batch) {
    validateFeedback(item);
    const key = `${item.project_id}\u0000${item.id}`;
    if (seen.has(key)) throw invalidRequest(`batch: id ${item.id} appears twice`);
    seen.add(key);
  }
  const created_at = nowIso();
  return db.kysely.transaction().execute(async (tx) => {
    for (const [i, item] of req.batch.entries())
      await checkFeedbackLinks(db, tx, item, req.batch.length === 1 && single ? ['body'] : ['body', 'batch', String(i)]);
    const res: T.FeedbackCreateRes[] = [];
    for (const item of req.batch) {
      const inserted = await tx
        .insertInto('feedback')
        .values(feedbackRow(db, item, item.id, user, created_at))
        .onConflict((oc) => oc.columns(['project_id', 'id']).doNothing())
        .returning('created_at')
        .executeTakeFirst();
      if (inserted) {
        res.push({ id: item.id, created_at, svc_user_id: user, wb_user_id: user, payload: item.payload });
        continue;
      }
      // The id exists: a retry of the same item answers as before; anything else is a conflict.
      const stored = await tx
        .selectFrom('feedback')
        .selectAll()
        .where('project_id', '=', item.project_id)
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow();
      const same =
        stored.deleted_at === null &&
        stored.weave_ref === item.weave_ref &&
        stored.feedback_type === item.feedback_type &&
        pyJsonDumpsValue(readJson(db, stored.payload)) === pyJsonDumpsValue(item.payload) &&
        (['creator', 'annotation_ref', 'runnable_ref', 'call_ref', 'trigger_ref'] as const).every((k) => stored[k] === (item[k] ?? null)) &&
        stored.queue_id === (item.queue_id || null);
      if (!same) throw conflict(`Feedback ${item.id} already exists with other content`);
      res.push({
        id: item.id,
        created_at: stored.created_at,
        svc_user_id: stored.svc_user_id ?? user,
        wb_user_id: stored.svc_user_id ?? user,
        payload: item.payload,
      });
    }
    return { res };
  });
}
