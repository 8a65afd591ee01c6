// Annotation queues: named lists of calls for people to score (Weave's annotation queues).
import type { StoreOptions } from '../create-store.ts';
import type { Store } from '../store.ts';
import { createQueue } from './queue-create.ts';
import { deleteQueue } from './queue-delete.ts';
import { readQueue } from './queue-read.ts';
import { updateQueue } from './queue-update.ts';
import { queryQueues } from './queues-query.ts';

export function annotationQueueMethods(
  opts: StoreOptions,
): Pick<Store, 'annotationQueueCreate' | 'annotationQueuesQuery' | 'annotationQueueRead' | 'annotationQueueUpdate' | 'annotationQueueDelete'> {
  const { db } = opts;
  return {
    annotationQueueCreate: (req, ctx) => createQueue(db, req, ctx.user),
    annotationQueuesQuery: (req) => queryQueues(db, req),
    annotationQueueRead: (req) => readQueue(db, req),
    annotationQueueUpdate: (req) => updateQueue(db, req),
    annotationQueueDelete: (req) => deleteQueue(db, req),
  };
}
