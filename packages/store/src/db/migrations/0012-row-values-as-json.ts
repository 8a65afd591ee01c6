// Table rows (`rows.val`) become PostgreSQL json, the text as written, instead of jsonb. A row is
// written once and read whole far more often than inside it (table/query pages, trajectories read
// back), while jsonb's input builds a binary tree with a numeric for every number: for a
// trajectory log that was most of what PostgreSQL did (BENCHMARKS.md, scenario 4). A sort reads
// inside a row: it takes each key once from the text, as jsonb (table-sort-sql.ts). The text is
// the one Weft wrote, number spellings included (jsonb respelled 1e2 as 100): /table/create's rows
// as SQLite holds them, a log's with the trajectory's keys in the order sent (trajectory-table.ts).
//
// Rows stored before keep jsonb's text, a blank after each ',' and ':': the same values, which every
// reader parses; minifying them with a regular expression made the migration 13× slower. The type
// change rewrites the table under an exclusive lock: 12 s for the bench's million rows (1 GB;
// BENCHMARKS.md). It also resets the column's compression, so lz4 (migration 0006) is set again
// in the same statement, before the rewrite.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { hasLz4 } from './0006-log-tables.ts';

export function rowValuesAsJson(dialect: Dialect): Migration {
  return {
    async up(db) {
      if (dialect !== 'postgres') return; // SQLite's rows are text already
      const lz4 = (await hasLz4(db)) ? sql`, alter column val set compression lz4` : sql``;
      await sql`alter table rows alter column val type json using cast(val as json)${lz4}`.execute(db);
    },
    async down(db) {
      if (dialect !== 'postgres') return;
      const lz4 = (await hasLz4(db)) ? sql`, alter column val set compression lz4` : sql``;
      await sql`alter table rows alter column val type jsonb using cast(val as jsonb)${lz4}`.execute(db);
    },
  };
}
