// How a table query reaches its rows' values on PostgreSQL (see rowValuesJoin): by primary-key
// lookups, whatever the planner's estimates, unless it reads or sorts a whole table of more than
// LOOKUP_MAX_ROWS rows, where the planner's own join is faster (hash or merge, on a large
// table). Its estimates for such a table are made right when it is created: table/create runs
// ANALYZE after writing one (a table of that size takes seconds to write; ANALYZE samples 30,000
// rows of each table).
import type { Db } from '../db/index.ts';
import { refreshPlannerStatistics } from '../db/dialect-planner.ts';

export const LOOKUP_MAX_ROWS = 200_000;

/** True when a whole-table read or sort of a table of `rowCount` rows should use lookups. */
export function wholeTableByLookup(rowCount: number | undefined): boolean {
  return rowCount === undefined || rowCount <= LOOKUP_MAX_ROWS;
}

/** The number of rows of a stored table; undefined when there is no such table. */
export async function tableRowCount(db: Db, projectId: string, digest: string): Promise<number | undefined> {
  const table = await db.kysely
    .selectFrom('tables')
    .select('row_count')
    .where('project_id', '=', projectId)
    .where('digest', '=', digest)
    .executeTakeFirst();
  return table?.row_count;
}

/** After table/create: fresh statistics (PostgreSQL) for a table read by the planner's join. */
export async function analyzeAfterCreate(db: Db, rowCount: number): Promise<void> {
  if (rowCount > LOOKUP_MAX_ROWS) await refreshPlannerStatistics(db, ['table_rows', 'rows']);
}
