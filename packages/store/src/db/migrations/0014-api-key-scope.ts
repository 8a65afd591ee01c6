// A key's scope (read, write or admin): what the operations it may run declare they need
// (x-weft-access in the spec). Keys made before scopes existed keep what they had: everything.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { columnType } from './create-table.ts';

export function apiKeyScope(dialect: Dialect): Migration {
  return {
    // Kysely<any>: migrations must not depend on the current typed schema.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('api_keys')
        .addColumn('scope', columnType(dialect, 'text'), (col) =>
          col
            .notNull()
            .defaultTo('admin')
            .check(sql`scope in ('read', 'write', 'admin')`),
        )
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('api_keys').dropColumn('scope').execute();
    },
  };
}
