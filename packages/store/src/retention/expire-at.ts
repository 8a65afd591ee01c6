// The expiry of a call, stamped when its start (or, for an end that arrives first, its end) is
// written: the anchor plus the project's retention in force at that moment, or NULL when the
// project has none. Weave does the same at insert (started_at + retention_days), so a change of
// the setting applies to calls written after it and never rewrites stored ones.
//
// One scalar subquery inside the call's own upsert (a primary-key lookup): no extra round trip
// on PostgreSQL, and no cache that another replica's update could leave stale.
import { sql, type RawBuilder } from 'kysely';
import { isoPlusDays, type Db } from '../db/index.ts';

/** PostgreSQL's timestamps have no year 0: a start before year 1 counts from its first instant (on both databases). */
const EARLIEST = '0001-01-01T00:00:00.000Z';

/** `anchor` is the stored form of the call's started_at (ended_at for an end that comes first). */
export function expireAtFor(db: Pick<Db, 'dialect'>, projectId: string, anchor: string): RawBuilder<string | null> {
  const from = anchor < EARLIEST ? EARLIEST : anchor;
  const expiry = isoPlusDays(db, sql`${from}`, sql.ref('retention_days'));
  return sql<string | null>`(select ${expiry} from project_ttl_settings where project_id = ${projectId})`;
}
