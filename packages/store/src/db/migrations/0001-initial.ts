// The initial schema. Released migrations are immutable: change the schema with a new file.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex, createTable } from './create-table.ts';

const flag = (column: string) => sql`${sql.ref(column)} IN (0, 1)`;

export function initialSchema(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createTable(db, dialect, 'objects', {
        columns: {
          project_id: 'text',
          object_id: 'text',
          digest: 'text',
          version_index: 'int',
          kind: 'text',
          base_object_class: 'text?',
          leaf_object_class: 'text?',
          val: 'json',
          size_bytes: 'int',
          created_at: 'text',
          deleted_at: 'text?',
          svc_user_id: 'text?',
          is_latest: 'int',
        },
        primaryKey: ['project_id', 'object_id', 'digest'],
        unique: { objects_version_index_key: ['project_id', 'object_id', 'version_index'] },
        checks: { objects_is_latest_check: flag('is_latest') },
      });
      // The default listing order.
      await createIndex(db, 'objects_created_idx', 'objects', ['project_id', 'created_at', 'version_index']);
      // latest_only listings: the cost of a page grows with the limit, not with the project.
      await createIndex(db, 'objects_latest_created_idx', 'objects', ['project_id', 'created_at', 'version_index'], sql`is_latest = 1`);

      await createTable(db, dialect, 'tables', {
        columns: { project_id: 'text', digest: 'text', row_count: 'int', created_at: 'text' },
        primaryKey: ['project_id', 'digest'],
      });

      await createTable(db, dialect, 'rows', {
        columns: { project_id: 'text', digest: 'text', val: 'json' },
        primaryKey: ['project_id', 'digest'],
      });

      // A page in insertion order is a range read on row_index. No foreign keys here: the store
      // writes rows before lists in one transaction, and FK checks made 100k-row tables 5× slower.
      await createTable(db, dialect, 'table_rows', {
        columns: { project_id: 'text', table_digest: 'text', row_index: 'int', row_digest: 'text' },
        primaryKey: ['project_id', 'table_digest', 'row_index'],
      });

      // Every column but the key is nullable: start and end arrive separately, in either order.
      await createTable(db, dialect, 'calls', {
        columns: {
          project_id: 'text',
          id: 'text',
          trace_id: 'text?',
          parent_id: 'text?',
          op_name: 'text?',
          display_name: 'text?',
          thread_id: 'text?',
          turn_id: 'text?',
          started_at: 'text?',
          ended_at: 'text?',
          attributes: 'json?',
          inputs: 'json?',
          output: 'json?',
          exception: 'text?',
          summary: 'json?',
          svc_user_id: 'text?',
          svc_username: 'text?',
          svc_run_id: 'text?',
          svc_run_step: 'int?',
          svc_run_step_end: 'int?',
          deleted_at: 'text?',
          expire_at: 'text?',
        },
        primaryKey: ['project_id', 'id'],
      });
      await createIndex(db, 'calls_trace_idx', 'calls', ['project_id', 'trace_id']);
      await createIndex(db, 'calls_parent_idx', 'calls', ['project_id', 'parent_id']);
      await createIndex(db, 'calls_started_idx', 'calls', ['project_id', 'started_at']);
      await createIndex(db, 'calls_op_name_idx', 'calls', ['project_id', 'op_name']);

      await createTable(db, dialect, 'annotation_queues', {
        columns: {
          project_id: 'text',
          id: 'text',
          name: 'text',
          description: 'text',
          scorer_refs: 'json',
          created_at: 'text',
          created_by: 'text',
          updated_at: 'text',
          deleted_at: 'text?',
        },
        primaryKey: ['project_id', 'id'],
      });
      await createIndex(db, 'annotation_queues_created_idx', 'annotation_queues', ['project_id', 'created_at']);

      // Small and looked up by id: a Citus reference table, so its key needs no project_id.
      await createTable(db, dialect, 'models', {
        columns: {
          id: 'text',
          project_id: 'text',
          entity: 'text',
          project: 'text',
          name: 'text',
          base_model: 'text',
          run_id: 'text?',
          created_at: 'text',
        },
        primaryKey: ['id'],
        unique: { models_name_key: ['project_id', 'name'] },
      });

      await createTable(db, dialect, 'trajectory_logs', {
        columns: {
          project_id: 'text',
          id: 'text',
          model_id: 'text',
          split: 'text',
          step: 'int',
          created_at: 'text',
          metrics: 'json',
          group_count: 'int',
          trajectory_count: 'int',
        },
        primaryKey: ['project_id', 'id'],
      });
      await createIndex(db, 'trajectory_logs_step_idx', 'trajectory_logs', ['project_id', 'model_id', 'split', 'step']);

      await createTable(db, dialect, 'trajectory_groups', {
        columns: { project_id: 'text', log_id: 'text', group_index: 'int', data: 'json' },
        primaryKey: ['project_id', 'log_id', 'group_index'],
        foreignKeys: {
          trajectory_groups_log_fkey: {
            columns: ['project_id', 'log_id'],
            references: 'trajectory_logs',
            referencedColumns: ['project_id', 'id'],
            onDelete: 'cascade',
          },
        },
      });

      await createTable(db, dialect, 'trajectories', {
        columns: {
          project_id: 'text',
          log_id: 'text',
          group_index: 'int',
          trajectory_index: 'int',
          reward: 'double',
          data: 'json',
        },
        primaryKey: ['project_id', 'log_id', 'group_index', 'trajectory_index'],
        foreignKeys: {
          trajectories_group_fkey: {
            columns: ['project_id', 'log_id', 'group_index'],
            references: 'trajectory_groups',
            referencedColumns: ['project_id', 'log_id', 'group_index'],
            onDelete: 'cascade',
          },
        },
      });

      await createTable(db, dialect, 'files', {
        columns: { project_id: 'text', digest: 'text', size_bytes: 'int', content: 'blob', created_at: 'text' },
        primaryKey: ['project_id', 'digest'],
      });

      await createTable(db, dialect, 'feedback', {
        columns: {
          project_id: 'text',
          id: 'text',
          weave_ref: 'text',
          feedback_type: 'text',
          payload: 'json',
          creator: 'text?',
          annotation_ref: 'text?',
          runnable_ref: 'text?',
          call_ref: 'text?',
          trigger_ref: 'text?',
          svc_user_id: 'text?',
          created_at: 'text',
          deleted_at: 'text?',
        },
        primaryKey: ['project_id', 'id'],
      });
      await createIndex(db, 'feedback_weave_ref_idx', 'feedback', ['project_id', 'weave_ref']);
    },

    async down(db) {
      // Children before parents (foreign keys).
      for (const table of [
        'feedback',
        'files',
        'trajectories',
        'trajectory_groups',
        'trajectory_logs',
        'models',
        'annotation_queues',
        'calls',
        'table_rows',
        'rows',
        'tables',
        'objects',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
