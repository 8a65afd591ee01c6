// LLM-as-judge (calls/score and monitors): one row per judgement to do, and each monitor's place
// in its project's calls.
//
// - judgements: `source_key` is what makes a judgement unique with its scorer and call: a monitor
//   judges a call once across its versions and restarts (`monitor:<name>`), while each calls/score
//   request is its own (`request:<id>`). judgements_due_idx serves the judges' claim of the next
//   due rows (every project: judges run in the server, not per tenant); judgements_created_idx a
//   project's newest first (judgements/query).
// - monitor_cursors: the started_at up to which a monitor has looked at its project's calls.
// - objects_monitors_idx: the live Monitor objects of every project, which the scan of monitors
//   reads every few seconds: partial, so it holds the monitors alone however many objects there are.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex, createTable } from './create-table.ts';

export function judgements(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createTable(db, dialect, 'judgements', {
        columns: {
          project_id: 'text',
          id: 'text',
          source_key: 'text',
          monitor_ref: 'text?',
          scorer_ref: 'text',
          call_id: 'text',
          state: 'text',
          attempts: 'int',
          due_at: 'text',
          judge_call_id: 'text?',
          feedback_id: 'text',
          cost_usd: 'text?',
          error: 'text?',
          requested_by: 'text',
          created_at: 'text',
          updated_at: 'text',
        },
        primaryKey: ['project_id', 'id'],
        unique: { judgements_once_key: ['project_id', 'source_key', 'scorer_ref', 'call_id'] },
      });
      await createIndex(db, 'judgements_due_idx', 'judgements', ['state', 'due_at']);
      await createIndex(db, 'judgements_created_idx', 'judgements', ['project_id', 'created_at', 'id']);
      await createTable(db, dialect, 'monitor_cursors', {
        columns: { project_id: 'text', monitor: 'text', started_at: 'text', updated_at: 'text' },
        primaryKey: ['project_id', 'monitor'],
      });
      await createIndex(
        db,
        'objects_monitors_idx',
        'objects',
        ['project_id', 'object_id'],
        sql`base_object_class = 'Monitor' and is_latest = 1 and deleted_at is null`,
      );
    },
    async down(db) {
      await db.schema.dropIndex('objects_monitors_idx').execute();
      await db.schema.dropTable('monitor_cursors').execute();
      await db.schema.dropTable('judgements').execute();
    },
  };
}
