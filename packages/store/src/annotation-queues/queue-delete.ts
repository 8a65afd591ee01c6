// DELETE /annotation_queues/{id}: a soft delete (deleted_at = updated_at = now) that answers the
// deleted queue. The `deleted_at is null` condition makes a second delete, even a concurrent
// one, a 404.
import { notFound } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import type { QueueKey } from '../store.ts';
import { toQueueSchema } from './to-queue-schema.ts';

export async function annotationQueueDelete(db: Db, key: QueueKey): Promise<T.AnnotationQueueRes> {
  const now = nowIso();
  const row = await db.kysely
    .updateTable('annotation_queues')
    .set({ deleted_at: now, updated_at: now })
    .where('project_id', '=', key.project_id)
    .where('id', '=', key.queue_id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound(`Queue ${key.queue_id} not found or already deleted`);
  return { queue: toQueueSchema(db, row) };
}
