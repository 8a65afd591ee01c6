// PUT /annotation_queues/{id}: changes the supplied fields. A field that is absent or null is
// left unchanged; any supplied field (even with its current value) bumps updated_at.
//
// One UPDATE … RETURNING that sets only the supplied columns: two concurrent updates of different
// fields both survive (PostgreSQL re-evaluates the second against the first's committed row),
// where reading the row, merging in JS and writing it back would lose one of them.
import { notFound } from '@weft/core';
import type * as T from '@weft/types';
import { jsonParam, nowIso, type Db } from '../db/index.ts';
import type { QueueKey } from '../store.ts';
import { findLiveQueue } from './queue-read.ts';
import { toQueueSchema } from './to-queue-schema.ts';

export async function annotationQueueUpdate(db: Db, req: QueueKey & T.AnnotationQueueUpdateReq): Promise<T.AnnotationQueueRes> {
  const gone = () => notFound(`Queue ${req.queue_id} not found or already deleted`);
  const changes = {
    ...(req.name != null && { name: req.name }),
    ...(req.description != null && { description: req.description }),
    ...(req.scorer_refs != null && { scorer_refs: jsonParam(db, req.scorer_refs) }),
  };
  if (Object.keys(changes).length === 0) {
    // Nothing to change: the stored queue as it is, updated_at included.
    const row = await findLiveQueue(db.kysely, req);
    if (!row) throw gone();
    return { queue: toQueueSchema(db, row) };
  }
  const row = await db.kysely
    .updateTable('annotation_queues')
    .set({ ...changes, updated_at: nowIso() })
    .where('project_id', '=', req.project_id)
    .where('id', '=', req.queue_id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw gone();
  return { queue: toQueueSchema(db, row) };
}
