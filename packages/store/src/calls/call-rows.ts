// The one upsert of `calls`. A call's row has two halves written by different requests: the start
// (call/start) and the end (call/end); an upsert replaces only the columns of the half it carries,
// so the halves merge in either order. A whole call (an OTLP span, or a start followed by its end
// in one call/upsert_batch) carries both and is one statement instead of two.
//
// Several rows go in one statement when they are distinct calls: PostgreSQL refuses a statement
// that touches one row twice (callers keep a call's repeats apart).
import { sql, type InsertObject, type Kysely } from 'kysely';
import type { CallsTable, Database } from '../db/index.ts';

type CallColumn = Exclude<keyof CallsTable, 'project_id' | 'id'>;

/** What a start replaces on a stored row: every column it carries (a missing optional becomes null). */
export const START_COLUMNS = [
  'trace_id',
  'parent_id',
  'op_name',
  'display_name',
  'thread_id',
  'turn_id',
  'started_at',
  'expire_at',
  'attributes',
  'inputs',
  'svc_user_id',
  'svc_run_id',
  'svc_run_step',
] as const satisfies readonly CallColumn[];

/**
 * What an end replaces. Not `expire_at`: an end that arrives first stamps one (a start that never
 * comes would otherwise keep the row for ever), and the start's, when it comes, wins.
 */
export const END_COLUMNS = ['ended_at', 'exception', 'output', 'summary', 'svc_run_step_end'] as const satisfies readonly CallColumn[];

/** A start and its end together. */
export const WHOLE_COLUMNS = [...START_COLUMNS, ...END_COLUMNS] as const;

/** A row of calls as written: values, or expressions (the expiry's subquery, JSON conversions). */
export type CallRow = InsertObject<Database, 'calls'>;

/**
 * Rows per statement at most, in chunks of a power of two: a statement's text then repeats from
 * batch to batch and stays short enough for SQLite's statement cache (db/statement-cache.ts)
 * instead of being prepared again for every batch size.
 */
const MAX_ROWS = 16;

/** Inserts the rows, or replaces `replace` on the calls already stored (by project and id). */
export async function upsertCallRows(kysely: Kysely<Database>, rows: CallRow[], replace: readonly CallColumn[]): Promise<void> {
  const set = Object.fromEntries(replace.map((column) => [column, sql.ref(`excluded.${column}`)]));
  for (let at = 0; at < rows.length;) {
    const size = Math.min(MAX_ROWS, 2 ** Math.floor(Math.log2(rows.length - at)));
    await kysely
      .insertInto('calls')
      .values(rows.slice(at, at + size))
      .onConflict((oc) => oc.columns(['project_id', 'id']).doUpdateSet(set))
      .execute();
    at += size;
  }
}
