// Objects' values (`objects.val`) become PostgreSQL json, the text as written, instead of jsonb, as
// table rows did in 0012: an object reads back with its keys in the order they were sent and its
// numbers spelt as sent, as SQLite (which holds the same text) and Weave's ClickHouse answer it.
// Nothing reads inside an object's value in SQL but the retention sweep's search for file
// digests, which reads json as it reads jsonb.
//
// Values stored before keep jsonb's text (its key order, a blank after each ',' and ':'): the same
// values, which every reader parses. The type change rewrites the table under an exclusive lock,
// as 0012 did for table rows; objects are far fewer than rows.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';

export function objectValuesAsJson(dialect: Dialect): Migration {
  return {
    async up(db) {
      if (dialect !== 'postgres') return; // SQLite's values are text already
      await sql`alter table objects alter column val type json using cast(val as json)`.execute(db);
    },
    async down(db) {
      if (dialect !== 'postgres') return;
      await sql`alter table objects alter column val type jsonb using cast(val as jsonb)`.execute(db);
    },
  };
}
