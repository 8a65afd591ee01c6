// Storage sizes for call/read's include flags: the UTF-8 byte length of the compact JSON text of
// attributes + inputs + output + summary, as stored (the summary without the read-time `weave`
// fields). A column that was never written (no end yet) counts 0; a JSON null output counts 4.
//
// Measured in SQL so a trace's total is one aggregate over the (project_id, trace_id) index
// instead of shipping every call's JSON to the application.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { jsonByteLength, type Database, type Db } from '../db/index.ts';

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
