// The sums behind a trajectory log's aggregates (LogSums in models/log-metrics.ts), so the metric
// history combines the logs of a step without reading their trajectories. Logs stored before
// this migration have none; the history computes theirs once from their rows and stores them.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';

export function logSums(dialect: Dialect): Migration {
  return {
    async up(db) {
      await sql`alter table trajectory_logs add column sums ${sql.raw(dialect === 'postgres' ? 'jsonb' : 'text')}`.execute(db);
    },
    async down(db) {
      await sql`alter table trajectory_logs drop column sums`.execute(db);
    },
  };
}
