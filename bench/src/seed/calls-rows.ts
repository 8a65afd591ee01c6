// A generated call as the `calls` row the store writes for it (call-start.ts and call-end.ts
// merged), so the seed can insert a million of them in batches instead of a million upserts.
// Whether this is really what the store writes is not assumed: seedCalls has the store write a
// sample itself and compares (calls-seed.ts), and every reuse compares a sample again.
import { isDeepStrictEqual } from 'node:util';
import type { Db } from '@weft/store';
import type { GeneratedCall } from './calls-spec.ts';

/** The user the seed writes as (the store records the authenticated user as svc_user_id). */
export const SEED_USER = 'bench';

export type CallRow = Record<string, string | number | null>;

/** JSON columns: text in SQLite (compared as text), jsonb in PostgreSQL (compared as values). */
const JSON_COLUMNS = new Set(['attributes', 'inputs', 'output', 'summary']);

export function storedRow(call: GeneratedCall): CallRow {
  const { start, end } = call;
  return {
    project_id: start.project_id,
    id: start.id ?? null,
    trace_id: start.trace_id ?? null,
    parent_id: start.parent_id ?? null,
    op_name: start.op_name,
    display_name: start.display_name ?? null,
    thread_id: start.thread_id ?? null,
    turn_id: start.turn_id ?? null,
    // The stored form: UTC ISO with milliseconds (the SDK's microseconds are cut).
    started_at: new Date(start.started_at).toISOString(),
    ended_at: new Date(end.ended_at).toISOString(),
    attributes: JSON.stringify(start.attributes),
    inputs: JSON.stringify(start.inputs),
    output: JSON.stringify(end.output ?? null),
    exception: end.exception ?? null,
    summary: JSON.stringify(end.summary),
    svc_user_id: SEED_USER,
    svc_username: null,
    svc_run_id: start.svc_run_id ?? null,
    svc_run_step: start.svc_run_step ?? null,
    svc_run_step_end: end.svc_run_step_end ?? null,
    deleted_at: null,
    // The seed's projects have no retention setting.
    expire_at: null,
  };
}

/** Inserts rows as they are, in one multi-row statement per slice that fits the bind limit. */
export async function insertRows(db: Db, rows: readonly CallRow[]): Promise<void> {
  if (rows.length === 0) return;
  const perStatement = Math.floor((db.dialect === 'postgres' ? 65_535 : 32_766) / Object.keys(rows[0]!).length);
  for (let i = 0; i < rows.length; i += perStatement) {
    // Plain values: SQLite stores the JSON text as the store binds it; PostgreSQL casts the
    // untyped text parameters to the jsonb columns, as the store's `cast(… as jsonb)` does.
    await db.kysely
      .insertInto('calls')
      .values(rows.slice(i, i + perStatement) as never)
      .execute();
  }
}

/** The differences between a stored row and the expected one, column by column ([] if none). */
export function rowDifferences(db: Db, stored: Record<string, unknown> | undefined, expected: CallRow): string[] {
  if (!stored) return [`call ${expected.id} is missing`];
  const columns = new Set([...Object.keys(stored), ...Object.keys(expected)]);
  const differences: string[] = [];
  for (const column of columns) {
    const want = expected[column] ?? null;
    const got = stored[column] ?? null;
    const same =
      db.dialect === 'postgres' && JSON_COLUMNS.has(column) && typeof want === 'string'
        ? isDeepStrictEqual(got, JSON.parse(want))
        : isDeepStrictEqual(got, want);
    if (!same) differences.push(`call ${expected.id}: ${column} is ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  return differences;
}

/** The stored rows of some calls of a project, by id. */
export async function storedRows(db: Db, projectId: string, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
  const rows = await db.kysely.selectFrom('calls').selectAll().where('project_id', '=', projectId).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r as Record<string, unknown>]));
}
