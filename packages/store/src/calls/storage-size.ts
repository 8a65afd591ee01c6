// Storage sizes for call/read's include flags: the UTF-8 byte length of the compact JSON text of
// attributes + inputs + output + summary, as stored (the summary without the read-time `weave`
// fields). A column that was never written (no end yet) counts 0; a JSON null output counts 4.
//
// Measured in SQL so a trace's total is one aggregate over the (project_id, trace_id) index
// instead of shipping every call's JSON to the application.
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { Database, Db } from '../db/index.ts';

// jsonb prints `{"a": 1, "b": [1, 2]}`; this drops the blank after ',' and ':' outside strings, so
// PostgreSQL measures the same text SQLite stores (what JSON.stringify wrote). The same pattern
// as jsonPathAsText's minification in db/dialect-helpers.ts.
const PG_MINIFY_RE = '("(?:[^"\\\\]|\\\\.)*")|([,:]) ';

/**
 * Byte length of a JSON column's compact text; 0 for SQL NULL. Dialect helper (a candidate for
 * db/dialect-helpers.ts). Known difference: jsonb respells some numbers (1e2 → 100).
 */
export function jsonByteLength(db: Pick<Db, 'dialect'>, column: Expression<unknown>): RawBuilder<number> {
  return db.dialect === 'postgres'
    ? sql<number>`coalesce(octet_length(regexp_replace(cast(${column} as text), ${PG_MINIFY_RE}, ${'\\1\\2'}, 'g')), 0)`
    : sql<number>`coalesce(length(cast(${column} as blob)), 0)`;
}

/** attributes + inputs + output + summary of the `calls` row in scope. */
export function callStorageSize(db: Pick<Db, 'dialect'>): RawBuilder<number> {
  const size = (column: string) => jsonByteLength(db, sql.ref(`calls.${column}`));
  return sql<number>`(${size('attributes')} + ${size('inputs')} + ${size('output')} + ${size('summary')})`;
}

/** Sum over the visible (started, not deleted) calls of a trace. */
export async function traceStorageSize(
  kysely: Kysely<Database>,
  db: Pick<Db, 'dialect'>,
  projectId: string,
  traceId: string,
): Promise<number> {
  const row = await kysely
    .selectFrom('calls')
    .select(sql<number | null>`sum(${callStorageSize(db)})`.as('total'))
    .where('project_id', '=', projectId)
    .where('trace_id', '=', traceId)
    .where('started_at', 'is not', null)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
