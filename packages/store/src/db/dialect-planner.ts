// Dialect helpers for the query planners' blind spots. PostgreSQL plans from statistics that
// ANALYZE gathers (autovacuum gets to new rows late); SQLite's planner may read `col IS NOT NULL`
// as an index range `col > NULL` and start a range read there.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from './db.ts';
import { dialectOf, type DialectSource } from './dialect-source.ts';
import type { Database } from './schema.ts';

/**
 * After a bulk write: fresh planner statistics for `tables` (all of them when omitted) on
 * PostgreSQL, which otherwise plans reads of the new rows from stale estimates. SQLite: nothing
 * (the store never gathers statistics there).
 */
export async function refreshPlannerStatistics(db: Pick<Db, 'dialect' | 'kysely'>, tables?: readonly (keyof Database)[]): Promise<void> {
  if (db.dialect !== 'postgres') return;
  // Table names from the schema's type, never from input.
  await (tables ? sql`analyze ${sql.raw(tables.join(', '))}` : sql`analyze`).execute(db.kysely);
}

/**
 * `column IS NOT NULL` as a filter only, never as an index range to start from: on SQLite the
 * unary `+` keeps the test off the index (its planner would otherwise read it as `column > NULL`
 * and, without statistics, may start a range read there instead of at the query's own bounds).
 * PostgreSQL has no such trap (nor `+text`).
 */
export function notNullWithoutIndex(d: DialectSource, column: string): RawBuilder<SqlBool> {
  return dialectOf(d) === 'sqlite' ? sql<SqlBool>`(+${sql.ref(column)} is not null)` : sql<SqlBool>`${sql.ref(column)} is not null`;
}
