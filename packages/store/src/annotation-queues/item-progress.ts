// POST /annotation_queues/{id}/items/{item_id}/progress: the authenticated annotator's state on
// one item, as Weave's ClickHouse server moves it: `in_progress` only while the annotator has no
// record; `completed` and `skipped` from none, `unstarted` or `in_progress`; anything else, a
// repeated state included, is a 400. Each move is one conditional write, so two requests of the
// same annotator cannot both pass the check.
import { invalidRequest, notFound } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import type { QueueKey } from '../store.ts';
import { findLiveQueue } from './queue-read.ts';
import { toItemSchema } from './to-item-schema.ts';

const SETTABLE = new Set(['in_progress', 'completed', 'skipped']);

export async function annotationQueueItemProgressUpdate(
  db: Db,
  req: QueueKey & { item_id: string } & T.AnnotationQueueItemProgressUpdateReq,
  user: string,
): Promise<T.AnnotationQueueItemRes> {
  const state = req.annotation_state;
  if (!SETTABLE.has(state))
    throw invalidRequest(`Invalid annotation_state ${JSON.stringify(state)}: must be in_progress, completed or skipped`);
  return db.kysely.transaction().execute(async (tx) => {
    if (!(await findLiveQueue(tx, req))) throw notFound(`Queue ${req.queue_id} not found`);
    const item = await tx
      .selectFrom('annotation_queue_items')
      .selectAll()
      .where('project_id', '=', req.project_id)
      .where('queue_id', '=', req.queue_id)
      .where('id', '=', req.item_id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!item) throw invalidRequest(`Item ${req.item_id} not found in queue ${req.queue_id}`);
    const now = nowIso();
    let moved = false;
    if (state !== 'in_progress') {
      const updated = await tx
        .updateTable('annotator_queue_items_progress')
        .set({ annotation_state: state, updated_at: now })
        .where('project_id', '=', req.project_id)
        .where('queue_item_id', '=', item.id)
        .where('annotator_id', '=', user)
        .where('annotation_state', 'in', ['unstarted', 'in_progress'])
        .executeTakeFirst();
      moved = updated.numUpdatedRows > 0n;
    }
    if (!moved) {
      const inserted = await tx
        .insertInto('annotator_queue_items_progress')
        .values({
          project_id: req.project_id,
          queue_item_id: item.id,
          annotator_id: user,
          queue_id: req.queue_id,
          call_id: item.call_id,
          annotation_state: state,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('annotation_state')
        .executeTakeFirst();
      if (!inserted) {
        const current = await tx
          .selectFrom('annotator_queue_items_progress')
          .select('annotation_state')
          .where('project_id', '=', req.project_id)
          .where('queue_item_id', '=', item.id)
          .where('annotator_id', '=', user)
          .executeTakeFirst();
        throw invalidRequest(`Invalid transition from ${current?.annotation_state ?? 'unstarted'} to ${state}`);
      }
    }
    return { item: toItemSchema(db, { ...item, state, annotator: user }) };
  });
}
