// Checkpoints of ART models: the steps a trainer saved, with their metrics. A log is recorded at
// the model's latest checkpoint step (ART's get_step()), and its aggregates are added to that
// checkpoint's metrics, which delete_checkpoints() ranks on. Keyed by project_id first, like every
// distributed table; the id is what ART's cursor pages by.
import type { Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex, createTable } from './create-table.ts';

export function modelCheckpoints(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createTable(db, dialect, 'model_checkpoints', {
        columns: { project_id: 'text', model_id: 'text', step: 'int', id: 'text', metrics: 'json', created_at: 'text' },
        primaryKey: ['project_id', 'model_id', 'step'],
      });
      await createIndex(db, 'model_checkpoints_id_idx', 'model_checkpoints', ['project_id', 'model_id', 'id']);
    },
    async down(db) {
      await db.schema.dropTable('model_checkpoints').execute();
    },
  };
}
