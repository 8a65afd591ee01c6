// Each trajectory log's trajectories form a content-addressed table (rows, table_rows, tables),
// which /table/query reads. A log records its table's digest; a trajectory records its row's
// digest, and its content lives in that row only (its `data` is JSON null). Logs stored before
// this migration keep their content in `trajectories.data`, with no table and null digests.
//
// Trajectories are read back by model, step and log: the index below serves that order.
//
// On PostgreSQL, large JSON values (trajectories with logprobs, table rows) are compressed with lz4
// rather than pglz when TOASTed: it compresses several times faster (BENCHMARKS.md, scenario 4),
// for slightly larger values (when the server was built with lz4). Values stored before keep theirs.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex } from './create-table.ts';

const LZ4_COLUMNS = [
  ['rows', 'val'],
  ['trajectory_groups', 'data'],
  ['trajectories', 'data'],
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on the untyped schema
async function setCompression(db: Kysely<any>, table: string, column: string, method: 'lz4' | 'default'): Promise<void> {
  await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set compression ${sql.raw(method)}`.execute(db);
}

/** Whether this PostgreSQL was built with lz4 (it lists the methods it has). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function hasLz4(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{
    lz4: boolean;
  }>`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  return rows[0]?.lz4 === true;
}

export function logTables(dialect: Dialect): Migration {
  // Text compares byte-wise in both databases (create-table.ts).
  const text = sql.raw(dialect === 'postgres' ? 'text collate "C"' : 'text');
  return {
    async up(db) {
      await sql`alter table trajectory_logs add column table_digest ${text}`.execute(db);
      await sql`alter table trajectories add column row_digest ${text}`.execute(db);
      await createIndex(db, 'trajectory_logs_model_step_idx', 'trajectory_logs', ['project_id', 'model_id', 'step', 'id']);
      if (dialect === 'postgres' && (await hasLz4(db)))
        for (const [table, column] of LZ4_COLUMNS) await setCompression(db, table, column, 'lz4');
    },
    async down(db) {
      if (dialect === 'postgres') for (const [table, column] of LZ4_COLUMNS) await setCompression(db, table, column, 'default');
      await db.schema.dropIndex('trajectory_logs_model_step_idx').execute();
      await sql`alter table trajectories drop column row_digest`.execute(db);
      await sql`alter table trajectory_logs drop column table_digest`.execute(db);
    },
  };
}
