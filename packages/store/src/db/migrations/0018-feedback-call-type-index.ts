// A call's newest feedback of one type (the calls query language's `feedback.[<type>]…` fields,
// read once per call in a filter or a sort): one index search of (project_id, weave_ref,
// feedback_type) that reads the newest row first. With (project_id, weave_ref) alone both planners
// chose feedback_created_idx instead, to skip the sort, and so walked the project's whole feedback
// for every call. The new index starts with the old one's columns and answers every lookup it
// did (include_feedback, the retention sweep's ranges of refs), so it replaces it.
import type { Migration } from 'kysely';
import { createIndex } from './create-table.ts';

export function feedbackCallTypeIndex(): Migration {
  return {
    async up(db) {
      await createIndex(db, 'feedback_call_type_idx', 'feedback', ['project_id', 'weave_ref', 'feedback_type', 'created_at', 'id']);
      await db.schema.dropIndex('feedback_weave_ref_idx').execute();
    },
    async down(db) {
      await createIndex(db, 'feedback_weave_ref_idx', 'feedback', ['project_id', 'weave_ref']);
      await db.schema.dropIndex('feedback_call_type_idx').execute();
    },
  };
}
