// feedback/create: validated as Weave does (validate-feedback.ts), stored with the authenticated
// user, never the svc_user_id a client sent.
import { uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import type { InsertObject } from 'kysely';
import { jsonParam, nowIso, type Database, type Db } from '../db/index.ts';
import { validateFeedback } from './validate-feedback.ts';

/** The stored row of a feedback item: create, batch/create and replace write the same. */
export function feedbackRow(
  db: Db,
  req: T.FeedbackCreateReq,
  id: string,
  user: string,
  created_at: string,
): InsertObject<Database, 'feedback'> {
  return {
    project_id: req.project_id,
    id,
    weave_ref: req.weave_ref,
    feedback_type: req.feedback_type,
    payload: jsonParam(db, req.payload),
    creator: req.creator ?? null,
    annotation_ref: req.annotation_ref ?? null,
    runnable_ref: req.runnable_ref ?? null,
    call_ref: req.call_ref ?? null,
    trigger_ref: req.trigger_ref ?? null,
    // The authenticated user, whatever the client sent.
    svc_user_id: user,
    created_at,
  };
}

export async function feedbackCreate(db: Db, req: T.FeedbackCreateReq, user: string): Promise<T.FeedbackCreateRes> {
  validateFeedback(req);
  const id = uuidv7();
  const created_at = nowIso();
  await db.kysely
    .insertInto('feedback')
    .values(feedbackRow(db, req, id, user, created_at))
    .execute();
  return { id, created_at, svc_user_id: user, wb_user_id: user, payload: req.payload };
}
