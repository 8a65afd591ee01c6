// GET /annotation_queues/{id}: a live queue of the project; deleted queues are gone (404), and a
// queue id of another project is not found either.
import { notFound } from '@weft/core';
import type * as T from '@weft/types';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/index.ts';
import type { QueueKey } from '../store.ts';
import { toQueueSchema } from './to-queue-schema.ts';

export async function findLiveQueue(kysely: Kysely<Database>, key: QueueKey) {
  return kysely
    .selectFrom('annotation_queues')
    .selectAll()
    .where('project_id', '=', key.project_id)
    .where('id', '=', key.queue_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function annotationQueueRead(db: Db, key: QueueKey): Promise<T.AnnotationQueueRes> {
  const row = await findLiveQueue(db.kysely, key);
  if (!row) throw notFound(`Queue ${key.queue_id} not found`);
  return { queue: toQueueSchema(db, row) };
}
