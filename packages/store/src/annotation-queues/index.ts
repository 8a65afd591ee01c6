// Annotation queues: named lists of calls for people to score (Weave's annotation queues), their
// items and each annotator's progress.
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { annotationQueueItemProgressUpdate } from './item-progress.ts';
import { annotationQueueAddCalls } from './items-add.ts';
import { annotationQueueItemsDelete } from './items-delete.ts';
import { annotationQueueItemsQuery } from './items-query.ts';
import { annotationQueueCreate } from './queue-create.ts';
import { annotationQueueDelete } from './queue-delete.ts';
import { annotationQueueRead } from './queue-read.ts';
import { annotationQueueUpdate } from './queue-update.ts';
import { annotationQueuesQuery } from './queues-query.ts';
import { annotationQueuesStats } from './queues-stats.ts';

export function annotationQueueMethods(opts: StoreOptions) {
  const { db } = opts;
  return storeMethods({
    annotationQueueCreate: (req, ctx) => annotationQueueCreate(db, req, ctx.user),
    annotationQueuesQuery: (req) => annotationQueuesQuery(db, req),
    annotationQueueRead: (req) => annotationQueueRead(db, req),
    annotationQueueUpdate: (req) => annotationQueueUpdate(db, req),
    annotationQueueDelete: (req) => annotationQueueDelete(db, req),
    annotationQueueAddCalls: (req, ctx) => annotationQueueAddCalls(db, req, ctx.user),
    annotationQueueItemsQuery: (req) => annotationQueueItemsQuery(db, req),
    annotationQueueItemProgressUpdate: (req, ctx) => annotationQueueItemProgressUpdate(db, req, ctx.user),
    annotationQueueItemsDelete: (req) => annotationQueueItemsDelete(db, req),
    annotationQueuesStats: (req) => annotationQueuesStats(db, req),
  });
}
