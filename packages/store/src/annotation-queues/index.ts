// Annotation queues: named lists of calls for people to score (Weave's annotation queues).
import type { StoreOptions } from '../create-store.ts';
import { storeMethods } from '../store.ts';
import { annotationQueueCreate } from './queue-create.ts';
import { annotationQueueDelete } from './queue-delete.ts';
import { annotationQueueRead } from './queue-read.ts';
import { annotationQueueUpdate } from './queue-update.ts';
import { annotationQueuesQuery } from './queues-query.ts';

export function annotationQueueMethods(opts: StoreOptions) {
  const { db } = opts;
  return storeMethods({
    annotationQueueCreate: (req, ctx) => annotationQueueCreate(db, req, ctx.user),
    annotationQueuesQuery: (req) => annotationQueuesQuery(db, req),
    annotationQueueRead: (req) => annotationQueueRead(db, req),
    annotationQueueUpdate: (req) => annotationQueueUpdate(db, req),
    annotationQueueDelete: (req) => annotationQueueDelete(db, req),
  });
}
