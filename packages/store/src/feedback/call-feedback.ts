// The feedback attached to calls, for calls/stream_query's include_feedback: rows whose weave_ref
// is the call's ref `weave:///<project_id>/call/<id>`, as Weave's hydrate_calls_with_feedback
// returns them (plus `id`, which lets a client delete or replace one).
import { readJson, type Db } from '../db/index.ts';

export interface CallFeedback {
  id: string;
  feedback_type: string;
  weave_ref: string;
  payload: unknown;
  creator: string | null;
  created_at: string;
  svc_user_id: string | null;
  runnable_ref: string | null;
  call_ref: string | null;
  trigger_ref: string | null;
  annotation_ref: string | null;
}

export function callRef(projectId: string, callId: string): string {
  return `weave:///${projectId}/call/${callId}`;
}

/** Live feedback of each call, oldest first; calls without feedback map to []. */
export async function feedbackOfCalls(db: Db, projectId: string, callIds: readonly string[]): Promise<Map<string, CallFeedback[]>> {
  const byRef = new Map<string, CallFeedback[]>();
  const byCall = new Map<string, CallFeedback[]>();
  for (const id of callIds) {
    const list: CallFeedback[] = [];
    byCall.set(id, list);
    byRef.set(callRef(projectId, id), list);
  }
  if (callIds.length === 0) return byCall;

  const rows = await db.kysely
    .selectFrom('feedback')
    .select([
      'id',
      'feedback_type',
      'weave_ref',
      'payload',
      'creator',
      'created_at',
      'svc_user_id',
      'runnable_ref',
      'call_ref',
      'trigger_ref',
      'annotation_ref',
    ])
    .where('project_id', '=', projectId)
    .where('weave_ref', 'in', [...byRef.keys()])
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  for (const row of rows) byRef.get(row.weave_ref)?.push({ ...row, payload: readJson(db, row.payload) });
  return byCall;
}
