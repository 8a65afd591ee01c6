// Each trajectory log's trajectories form a content-addressed table (rows, table_rows, tables),
// which /table/query reads. A log records its table's digest; a trajectory records its row's
// digest, and its content lives in that row only (its `data` is JSON null). Logs stored before
// this migration keep their content in `trajectories.data`, with no table and null digests.
//
// Trajectories are read back by model, step and log: the index below serves that order.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../connect.ts';
import { createIndex } from './create-table.ts';

export function logTables(dialect: Dialect): Migration {
  // Text compares byte-wise in both databases (create-table.ts).
  const text = sql.raw(dialect === 'postgres' ? 'text collate "C"' : 'text');
  return {
    async up(db) {
      await sql`alter table trajectory_logs add column table_digest ${text}`.execute(db);
      await sql`alter table trajectories add column row_digest ${text}`.execute(db);
      await createIndex(db, 'trajectory_logs_model_step_idx', 'trajectory_logs', ['project_id', 'model_id', 'step', 'id']);
    },
    async down(db) {
      await db.schema.dropIndex('trajectory_logs_model_step_idx').execute();
      await sql`alter table trajectories drop column row_digest`.execute(db);
      await sql`alter table trajectory_logs drop column table_digest`.execute(db);
    },
  };
}
