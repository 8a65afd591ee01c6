// The calls an annotation queue holds and each annotator's progress on them (Weave's
// annotation_queue_items and annotator_queue_items_progress), and the queue a feedback item was
// written from.
//
// - annotation_queue_items copies the call's start, end, op name and trace id when added, so a
//   queue's page reads no call. annotation_queue_items_queue_idx serves a queue's paging in its
//   default order (created_at, id); annotation_queue_items_call_idx (unique among live items)
//   serves the duplicate check and keeps a call in a queue once under concurrent adds.
// - annotator_queue_items_progress: one row per (item, annotator); an item's state is its latest
//   row. Keyed by project_id first, as every table (Citus-distributable).
// - feedback.queue_id: null outside queues.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex, createTable } from './create-table.ts';

export function annotationQueueItems(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createTable(db, dialect, 'annotation_queue_items', {
        columns: {
          project_id: 'text',
          id: 'text',
          queue_id: 'text',
          call_id: 'text',
          call_started_at: 'text',
          call_ended_at: 'text?',
          call_op_name: 'text',
          call_trace_id: 'text',
          display_fields: 'json',
          added_by: 'text?',
          created_at: 'text',
          created_by: 'text',
          updated_at: 'text',
          deleted_at: 'text?',
        },
        primaryKey: ['project_id', 'id'],
      });
      await createIndex(db, 'annotation_queue_items_queue_idx', 'annotation_queue_items', ['project_id', 'queue_id', 'created_at', 'id']);
      // Unique among live items: a call is in a queue once (a removed item's call may come back).
      await db.schema
        .createIndex('annotation_queue_items_call_idx')
        .unique()
        .on('annotation_queue_items')
        .columns(['project_id', 'queue_id', 'call_id'])
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();

      await createTable(db, dialect, 'annotator_queue_items_progress', {
        columns: {
          project_id: 'text',
          queue_item_id: 'text',
          annotator_id: 'text',
          queue_id: 'text',
          call_id: 'text',
          annotation_state: 'text',
          created_at: 'text',
          updated_at: 'text',
        },
        primaryKey: ['project_id', 'queue_item_id', 'annotator_id'],
      });
      await createIndex(db, 'annotator_queue_items_progress_queue_idx', 'annotator_queue_items_progress', [
        'project_id',
        'queue_id',
        'queue_item_id',
      ]);

      const text = dialect === 'postgres' ? sql`text COLLATE "C"` : sql`text`;
      await db.schema.alterTable('feedback').addColumn('queue_id', text).execute();
      await createIndex(db, 'feedback_queue_idx', 'feedback', ['project_id', 'queue_id'], sql`queue_id is not null`);
    },
    async down(db) {
      await db.schema.dropIndex('feedback_queue_idx').execute();
      await db.schema.alterTable('feedback').dropColumn('queue_id').execute();
      await db.schema.dropTable('annotator_queue_items_progress').execute();
      await db.schema.dropTable('annotation_queue_items').execute();
    },
  };
}
