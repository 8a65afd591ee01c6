// feedback/purge and feedback/replace, as Weave's trace server does them. A purge removes feedback
// for good, and for safety takes only what Weave takes: `{$expr: {$eq: [{$getField: "id"},
// {$literal: <id>}]}}` or an `$or` of such (anything else is a 400, as in Weave). A replace is a
// purge of one item and the create of its successor, in one transaction.
import { conflict, notFound, uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import { purgeIds } from '../query/purge-ids.ts';
import { checkFeedbackLinks } from './annotation-check.ts';
import { feedbackRow } from './feedback-row.ts';
import { validateFeedback } from './validate-feedback.ts';

const ONLY_BY_ID = 'Feedback can only be purged by id: {"$expr": {"$eq": [{"$getField": "id"}, {"$literal": "<id>"}]}}, or an $or of such';

export async function feedbackPurge(db: Db, req: T.FeedbackPurgeReq): Promise<T.FeedbackPurgeRes> {
  const ids = [...new Set(purgeIds(req.query, { message: ONLY_BY_ID }))];
  const result = await db.kysely.deleteFrom('feedback').where('project_id', '=', req.project_id).where('id', 'in', ids).executeTakeFirst();
  return { num_deleted: Number(result.numDeletedRows) };
}

export async function feedbackReplace(db: Db, req: T.FeedbackReplaceReq, user: string): Promise<T.FeedbackCreateRes> {
  const { feedback_id, ...create } = req;
  validateFeedback(create);
  return db.kysely.transaction().execute(async (tx) => {
    await checkFeedbackLinks(db, tx, create, ['body']);
    const gone = await tx.deleteFrom('feedback').where('project_id', '=', req.project_id).where('id', '=', feedback_id).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw notFound(`Feedback ${feedback_id} not found`);
    // The new item's id: the client's when it made one (the replaced item's own id may be reused),
    // else a new UUIDv7.
    const id = create.id ?? uuidv7();
    const created_at = nowIso();
    const inserted = await tx
      .insertInto('feedback')
      .values(feedbackRow(db, create, id, user, created_at))
      .onConflict((oc) => oc.columns(['project_id', 'id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw conflict(`Feedback ${id} already exists`);
    return { id, created_at, svc_user_id: user, wb_user_id: user, payload: req.payload };
  });
}
