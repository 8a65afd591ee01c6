// The feedback statistics routes (feedback/stats, payload_schema, aggregate) read a project's
// feedback in a window of creation times: a range of this index, rather than every feedback row
// of the project.
import type { Migration } from 'kysely';
import { createIndex } from './create-table.ts';

export function feedbackCreatedIndex(): Migration {
  return {
    async up(db) {
      await createIndex(db, 'feedback_created_idx', 'feedback', ['project_id', 'created_at']);
    },
    async down(db) {
      await db.schema.dropIndex('feedback_created_idx').execute();
    },
  };
}
