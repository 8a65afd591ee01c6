// A queue's page of items (annotation_queues/{id}/items/query, default order created_at, id) reads
// live items only (deleted_at is null). With annotation_queue_items_queue_idx not partial, a
// PostgreSQL that had no statistics yet on the table (a queue just filled) preferred the partial
// unique annotation_queue_items_call_idx, whose predicate matches the query's, and sorted the whole
// queue for every page. The same columns under the same predicate give the order directly whatever
// the statistics say; every read of queue items asks for live ones, so it replaces the old index.
import { sql, type Migration } from 'kysely';
import { createIndex } from './create-table.ts';

export function queueItemsLiveIndex(): Migration {
  return {
    async up(db) {
      await createIndex(
        db,
        'annotation_queue_items_live_idx',
        'annotation_queue_items',
        ['project_id', 'queue_id', 'created_at', 'id'],
        sql`deleted_at is null`,
      );
      await db.schema.dropIndex('annotation_queue_items_queue_idx').execute();
    },
    async down(db) {
      await createIndex(db, 'annotation_queue_items_queue_idx', 'annotation_queue_items', ['project_id', 'queue_id', 'created_at', 'id']);
      await db.schema.dropIndex('annotation_queue_items_live_idx').execute();
    },
  };
}
