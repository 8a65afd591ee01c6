// A statement's WITH clause from raw SELECTs (a table bound as JSON, say), for queries whose
// expressions read such a table many times: each is materialized, so it is built once.
import { sql, type QueryCreator, type RawBuilder } from 'kysely';
import type { Db } from './db.ts';
import type { Database } from './schema.ts';

export interface RawTable {
  name: string;
  select: RawBuilder<unknown>;
}

/** db.kysely with `with <name> as materialized (<select>)` for each table, each name once. */
export function withRawTables(db: Db, tables: readonly RawTable[]): QueryCreator<Database> {
  let creator: QueryCreator<Database> = db.kysely;
  const seen = new Set<string>();
  for (const table of tables) {
    if (seen.has(table.name)) continue;
    seen.add(table.name);
    // Kysely types a WITH body as a query it built, and parenthesizes only those: a raw SELECT
    // brings its own parentheses.
    const body = sql`(${table.select})`;
    creator = creator.with(
      (cte) => cte(table.name).materialized(),
      () => body as never,
    ) as unknown as QueryCreator<Database>;
  }
  return creator;
}
