// A call cannot end before it starts: start and end arrive separately, in either order and from
// different replicas, so the rule is kept where both meet, in the database. A row breaking it is
// refused (answered 422 by database-errors.ts) instead of storing a negative latency.
// Datetimes are fixed-width ISO text in both databases, so text order is time order.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';

const MESSAGE = 'ended_at is before started_at';

export function callTimeOrder(dialect: Dialect): Migration {
  return {
    async up(db) {
      if (dialect === 'postgres') {
        await sql`ALTER TABLE calls ADD CONSTRAINT calls_ended_after_started CHECK (ended_at IS NULL OR started_at IS NULL OR ended_at >= started_at)`.execute(
          db,
        );
        return;
      }
      // SQLite cannot add a CHECK to an existing table; triggers keep the same rule.
      for (const event of ['INSERT', 'UPDATE']) {
        await sql`${sql.raw(`CREATE TRIGGER calls_ended_after_started_${event.toLowerCase()} BEFORE ${event} ON calls
          WHEN NEW.ended_at IS NOT NULL AND NEW.started_at IS NOT NULL AND NEW.ended_at < NEW.started_at
          BEGIN SELECT RAISE(ABORT, '${MESSAGE}'); END`)}`.execute(db);
      }
    },
    async down(db) {
      if (dialect === 'postgres') {
        await sql`ALTER TABLE calls DROP CONSTRAINT calls_ended_after_started`.execute(db);
        return;
      }
      for (const event of ['insert', 'update']) await sql`${sql.raw(`DROP TRIGGER calls_ended_after_started_${event}`)}`.execute(db);
    },
  };
}
