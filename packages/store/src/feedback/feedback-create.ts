// feedback/create: validated as Weave does (validate-feedback.ts), stored with the authenticated
// user, never the svc_user_id a client sent. An item with the client's own id (newer Weave SDKs
// send one) is written as batch/create writes one, so a retry is idempotent there too.
import { uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import { checkFeedbackLinks } from './annotation-check.ts';
import { feedbackRow } from './feedback-row.ts';
import { feedbackBatchCreate } from './feedback-batch-create.ts';
import { validateFeedback } from './validate-feedback.ts';

export async function feedbackCreate(db: Db, req: T.FeedbackCreateReq, user: string): Promise<T.FeedbackCreateRes> {
  if (req.id != null) return (await feedbackBatchCreate(db, { batch: [{ ...req, id: req.id }] }, user, true)).res[0]!;
  validateFeedback(req);
  await checkFeedbackLinks(db, db.kysely, req, ['body']);
  const id = uuidv7();
  const created_at = nowIso();
  await db.kysely
    .insertInto('feedback')
    .values(feedbackRow(db, req, id, user, created_at))
    .execute();
  return { id, created_at, svc_user_id: user, wb_user_id: user, payload: req.payload };
}
