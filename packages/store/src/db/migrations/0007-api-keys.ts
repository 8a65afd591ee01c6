// API keys kept in the database (`weft keys create|list|revoke|rotate`), beside the auth file's,
// so that a revoke takes effect on every replica at once: each request that presents such a key
// reads its row. Only a key's SHA-256 hash is stored; `id` is the key's first characters, public
// (shown by `keys list`, used to find the row, never enough to authenticate).
//
// Both tables are global, not per project: like `models`, Citus reference tables.
import type { Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex, createTable } from './create-table.ts';

export function apiKeys(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createTable(db, dialect, 'auth_users', {
        // entities: a JSON array of entity names; "*" grants every entity, as in the auth file.
        columns: { username: 'text', entities: 'json', created_at: 'text' },
        primaryKey: ['username'],
      });
      await createTable(db, dialect, 'api_keys', {
        columns: {
          id: 'text',
          username: 'text',
          key_hash: 'text',
          name: 'text?',
          created_at: 'text',
          last_used_at: 'text?',
          revoked_at: 'text?',
          // Set by a rotation with a grace period: the old key works until then.
          expires_at: 'text?',
        },
        primaryKey: ['id'],
        foreignKeys: {
          api_keys_user_fkey: { columns: ['username'], references: 'auth_users', referencedColumns: ['username'], onDelete: 'cascade' },
        },
      });
      await createIndex(db, 'api_keys_username_idx', 'api_keys', ['username', 'created_at']);
    },
    async down(db) {
      await db.schema.dropTable('api_keys').execute();
      await db.schema.dropTable('auth_users').execute();
    },
  };
}
