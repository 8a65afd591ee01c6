// The stored row of a feedback item: create, batch/create and replace write the same.
import type * as T from '@weft/types';
import type { InsertObject } from 'kysely';
import { jsonParam, type Database, type Db } from '../db/index.ts';

/** The row for `req` under `id`, stamped with the authenticated user (never a client's claim). */
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
    // '' is Weave's "no queue".
    queue_id: req.queue_id || null,
    // The authenticated user, whatever the client sent.
    svc_user_id: user,
    created_at,
  };
}
