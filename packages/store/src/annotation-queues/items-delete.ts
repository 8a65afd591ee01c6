// POST /annotation_queues/{id}/items/delete (Weft's own; Weave has no such route): soft-deletes
// the named live items of the queue. Their progress and feedback stay, and the call may be added
// again as a new item.
import { notFound } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import type { QueueKey } from '../store.ts';
import { findLiveQueue } from './queue-read.ts';

export async function annotationQueueItemsDelete(
  db: Db,
  req: QueueKey & T.AnnotationQueueItemsDeleteReq,
): Promise<T.AnnotationQueueItemsDeleteRes> {
  return db.kysely.transaction().execute(async (tx) => {
    if (!(await findLiveQueue(tx, req))) throw notFound(`Queue ${req.queue_id} not found`);
    const now = nowIso();
    const result = await tx
      .updateTable('annotation_queue_items')
      .set({ deleted_at: now, updated_at: now })
      .where('project_id', '=', req.project_id)
      .where('queue_id', '=', req.queue_id)
      .where('id', 'in', [...new Set(req.item_ids)])
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return { num_deleted: Number(result.numUpdatedRows) };
  });
}
