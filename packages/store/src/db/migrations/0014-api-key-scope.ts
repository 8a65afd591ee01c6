// A key's scope (read, write or admin): what the operations it may run declare they need
// (x-weft-access in the spec). Keys made before scopes existed keep what they had: everything.
import type { Migration } from 'kysely';

export function apiKeyScope(): Migration {
  return {
    async up(db) {
      await db.schema
        .alterTable('api_keys')
        .addColumn('scope', 'text', (col) => col.notNull().defaultTo('admin'))
        .execute();
    },
    async down(db) {
      await db.schema.alterTable('api_keys').dropColumn('scope').execute();
    },
  };
}
