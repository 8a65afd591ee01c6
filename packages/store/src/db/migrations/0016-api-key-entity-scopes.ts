// A key's levels for named entities (`weft keys create --scope read --scope acme=write`): a JSON
// map from entity to read, write or admin, over the key's `scope` for the others. Null for a key
// with one level everywhere, which every key made before this migration keeps.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { columnType } from './create-table.ts';

export function apiKeyEntityScopes(dialect: Dialect): Migration {
  return {
    // Kysely<any>: migrations must not depend on the current typed schema.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('api_keys')
        .addColumn('entity_scopes', columnType(dialect, 'json'), (col) =>
          // jsonb rejects malformed JSON; make SQLite's text column do the same.
          dialect === 'sqlite' ? col.check(sql`entity_scopes is null or json_valid(entity_scopes)`) : col,
        )
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('api_keys').dropColumn('entity_scopes').execute();
    },
  };
}
