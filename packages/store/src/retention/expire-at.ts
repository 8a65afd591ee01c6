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

/**
 * What the expiry counts from, given `anchor`, the stored form of the call's started_at (ended_at
 * for an end that comes first). A value-level step: a statement compiled once applies it to each
 * anchor it binds (call-rows.ts), never to the marker it was built with.
 */
export function expiryFrom(anchor: string): string {
  return anchor < EARLIEST ? EARLIEST : anchor;
}

/** The expiry, as SQL: `from` (as expiryFrom gives it) plus the project's retention in force, or NULL. */
export function expireAtSql(db: Pick<Db, 'dialect'>, projectId: string, from: string): RawBuilder<string | null> {
  const expiry = isoPlusDays(db, sql`${from}`, sql.ref('retention_days'));
  return sql<string | null>`(select ${expiry} from project_ttl_settings where project_id = ${projectId})`;
}
