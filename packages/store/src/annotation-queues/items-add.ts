// POST /annotation_queues/{id}/items: the calls become items of the queue, each copying the call's
// start, end, op name and trace id. Calls already live in the queue are duplicates; unknown or
// deleted calls are skipped, counted neither way (Weave's add_calls). A call may be named by its
// ref. The unique index on live (queue, call) pairs makes a concurrent add of the same call one
// item: the loser counts it as a duplicate.
import { invalidRequest, notFound, parseWeaveRef, uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import { jsonParam, nowIso, type Db } from '../db/index.ts';
import type { QueueKey } from '../store.ts';
import { findLiveQueue } from './queue-read.ts';

function callIdOf(projectId: string, idOrRef: string): string {
  if (!idOrRef.startsWith('weave:///')) return idOrRef;
  const ref = parseWeaveRef(idOrRef);
  if ('error' in ref) throw invalidRequest(ref.error);
  if (ref.kind !== 'call') throw invalidRequest(`Invalid ref ${idOrRef}: the kind must be call`);
  if (ref.projectId !== projectId) throw invalidRequest(`Call ref ${idOrRef} does not match project id ${projectId}`);
  return ref.id;
}

export async function annotationQueueAddCalls(
  db: Db,
  req: QueueKey & T.AnnotationQueueAddCallsReq,
  user: string,
): Promise<T.AnnotationQueueAddCallsRes> {
  const ids = [...new Set(req.call_ids.map((c) => callIdOf(req.project_id, c)))];
  return db.kysely.transaction().execute(async (tx) => {
    if (!(await findLiveQueue(tx, req))) throw notFound(`Queue ${req.queue_id} not found`);
    if (ids.length === 0) return { added_count: 0, duplicates: 0 };
    const present = await tx
      .selectFrom('annotation_queue_items')
      .select('call_id')
      .where('project_id', '=', req.project_id)
      .where('queue_id', '=', req.queue_id)
      .where('call_id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    const inQueue = new Set(present.map((r) => r.call_id));
    const wanted = ids.filter((id) => !inQueue.has(id));
    const calls =
      wanted.length === 0
        ? []
        : await tx
            .selectFrom('calls')
            .select(['id', 'started_at', 'ended_at', 'op_name', 'trace_id'])
            .where('project_id', '=', req.project_id)
            .where('id', 'in', wanted)
            .where('deleted_at', 'is', null)
            .execute();
    // Items in the order the calls were asked for (their ids grow in that order).
    const rank = new Map(wanted.map((id, i) => [id, i]));
    calls.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
    const now = nowIso();
    const display = jsonParam(db, req.display_fields ?? []);
    const rows = calls.map((call) => ({
      project_id: req.project_id,
      id: uuidv7(),
      queue_id: req.queue_id,
      call_id: call.id,
      // A call known only by its end has no start; Weave's item requires one.
      call_started_at: call.started_at ?? call.ended_at ?? now,
      call_ended_at: call.ended_at,
      call_op_name: call.op_name ?? '',
      call_trace_id: call.trace_id ?? '',
      display_fields: display,
      added_by: user,
      created_at: now,
      created_by: user,
      updated_at: now,
      deleted_at: null,
    }));
    const added = rows.length
      ? await tx
          .insertInto('annotation_queue_items')
          .values(rows)
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .execute()
      : [];
    return { added_count: added.length, duplicates: inQueue.size + rows.length - added.length };
  });
}
