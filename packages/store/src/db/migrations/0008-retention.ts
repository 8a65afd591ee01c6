// Retention (Weave's per-project TTL): the setting, the calls' expiry index the sweeper reads,
// and the files the sweeper may delete once nothing references them any more.
//
// - project_ttl_settings: one row per project that ever had a retention; `retention_days` null
//   means none (cleared), kept with who changed it last, as Weave keeps an audit trail.
// - calls_expire_idx: partial, so it costs nothing for calls without an expiry (projects with
//   no retention); the sweeper finds the projects with expirable calls and their expired calls
//   through it, oldest first.
// - retention_file_candidates: files an expired call referenced, queued when the call was
//   deleted; the sweeper deletes each one later if no value of its project still references it.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex, createTable } from './create-table.ts';

export function retention(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createTable(db, dialect, 'project_ttl_settings', {
        columns: { project_id: 'text', retention_days: 'int?', updated_at: 'text', updated_by: 'text' },
        primaryKey: ['project_id'],
        checks: { project_ttl_settings_days_check: sql`retention_days is null or retention_days >= 1` },
      });
      await createIndex(db, 'calls_expire_idx', 'calls', ['project_id', 'expire_at'], sql`expire_at is not null`);
      await createTable(db, dialect, 'retention_file_candidates', {
        columns: { project_id: 'text', digest: 'text', queued_at: 'text' },
        primaryKey: ['project_id', 'digest'],
      });
    },
    async down(db) {
      await db.schema.dropTable('retention_file_candidates').execute();
      await db.schema.dropIndex('calls_expire_idx').execute();
      await db.schema.dropTable('project_ttl_settings').execute();
    },
  };
}
