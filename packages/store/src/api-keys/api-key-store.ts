// API keys kept in the database (migration 0007): what `weft keys create|list|revoke|rotate`
// write and what the server's authenticator reads on each request that presents such a key, so
// a revoke is seen by every replica on its next request. Hashing, key generation and the
// constant-time comparison stay with the server's auth (apps/server/src/auth/): this module only
// stores rows; it never sees a key, only its hash and its public id.
import { jsonParam, nowIso, readJson, type Db } from '../db/index.ts';
import type { Access } from '@weft/types/spec';

export interface NewApiKey {
  /** The key's public first characters (unique). */
  id: string;
  /** `sha256:<64 hex>` of the key. */
  key_hash: string;
  username: string;
  /** Required for a new user; for an existing one, entities not yet granted are added. */
  entities: readonly string[];
  name?: string | null | undefined;
  /** Unset: `admin`, everything the key's entities allow. */
  scope?: Access | undefined;
  /** Levels for named entities over `scope`; each must be an entity the user may access. */
  entity_scopes?: Readonly<Record<string, Access>> | null | undefined;
}

export interface ApiKeyInfo {
  id: string;
  username: string;
  entities: string[];
  name: string | null;
  scope: Access;
  entity_scopes: Record<string, Access> | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
}

/** What authenticating a presented key needs: its hash, its owner and whether it still works. */
export interface ApiKeyLookup {
  id: string;
  username: string;
  entities: string[];
  key_hash: string;
  scope: Access;
  entity_scopes: Record<string, Access> | null;
  revoked_at: string | null;
  expires_at: string | null;
}

export interface CreatedApiKey {
  createdUser: boolean;
  grantedEntities: string[];
}

export class ApiKeyError extends Error {
  override name = 'ApiKeyError';
}

export interface ApiKeyStore {
  create(key: NewApiKey): Promise<CreatedApiKey>;
  list(filter?: { username?: string | undefined; include_revoked?: boolean | undefined }): Promise<ApiKeyInfo[]>;
  find(id: string): Promise<ApiKeyLookup | undefined>;
  /** Revokes now; false when no such key. A key already revoked keeps its first revocation time. */
  revoke(id: string): Promise<boolean>;
  /** A new key for the old one's user and name; the old one is revoked now, or expires at `old_expires_at`. */
  rotate(oldId: string, replacement: { id: string; key_hash: string }, old_expires_at?: string | null): Promise<ApiKeyInfo>;
  /** Records a use (the caller throttles how often). */
  touch(id: string, at?: string): Promise<void>;
}

export function createApiKeyStore(db: Db): ApiKeyStore {
  const k = db.kysely;
  const entitiesOf = (value: unknown): string[] => readJson(db, value) as string[];
  const scopesOf = (value: unknown) => (value === null ? null : (readJson(db, value) as Record<string, Access>));
  const named = (scopes: NewApiKey['entity_scopes']) => (scopes && Object.keys(scopes).length > 0 ? scopes : null);

  return {
    async create(key) {
      const entities = [...new Set(key.entities)];
      return k.transaction().execute(async (tx) => {
        const now = nowIso();
        const user = await tx.selectFrom('auth_users').select('entities').where('username', '=', key.username).executeTakeFirst();
        let createdUser = false;
        let grantedEntities: string[] = [];
        if (!user) {
          if (entities.length === 0)
            throw new ApiKeyError(`User "${key.username}" does not exist yet: give at least one --entity it may access`);
          await tx
            .insertInto('auth_users')
            .values({ username: key.username, entities: jsonParam(db, entities), created_at: now })
            .execute();
          createdUser = true;
        } else {
          const current = entitiesOf(user.entities);
          grantedEntities = entities.filter((e) => !current.includes(e));
          if (grantedEntities.length > 0)
            await tx
              .updateTable('auth_users')
              .set({ entities: jsonParam(db, [...current, ...grantedEntities]) })
              .where('username', '=', key.username)
              .execute();
        }
        const scopes = named(key.entity_scopes);
        const granted = user ? [...entitiesOf(user.entities), ...grantedEntities] : entities;
        const outside = granted.includes('*') ? [] : Object.keys(scopes ?? {}).filter((e) => !granted.includes(e));
        if (outside.length > 0)
          throw new ApiKeyError(
            `A scope names ${outside.map((e) => `"${e}"`).join(', ')}, which "${key.username}" may not access: grant it with --entity`,
          );
        await tx
          .insertInto('api_keys')
          .values({
            id: key.id,
            username: key.username,
            key_hash: key.key_hash,
            name: key.name ?? null,
            scope: key.scope ?? 'admin',
            entity_scopes: scopes && jsonParam(db, scopes),
            created_at: now,
          })
          .execute();
        return { createdUser, grantedEntities };
      });
    },

    async list(filter = {}) {
      let q = k
        .selectFrom('api_keys')
        .innerJoin('auth_users', 'auth_users.username', 'api_keys.username')
        .select([
          'api_keys.id',
          'api_keys.username',
          'auth_users.entities',
          'api_keys.name',
          'api_keys.scope',
          'api_keys.entity_scopes',
          'api_keys.created_at',
          'api_keys.last_used_at',
          'api_keys.revoked_at',
          'api_keys.expires_at',
        ])
        .orderBy('api_keys.username')
        .orderBy('api_keys.created_at')
        .orderBy('api_keys.id');
      if (filter.username !== undefined) q = q.where('api_keys.username', '=', filter.username);
      if (!filter.include_revoked) q = q.where('api_keys.revoked_at', 'is', null);
      const rows = await q.execute();
      return rows.map((r) => ({ ...r, entities: entitiesOf(r.entities), entity_scopes: scopesOf(r.entity_scopes) }));
    },

    async find(id) {
      const row = await k
        .selectFrom('api_keys')
        .innerJoin('auth_users', 'auth_users.username', 'api_keys.username')
        .select([
          'api_keys.id',
          'api_keys.username',
          'auth_users.entities',
          'api_keys.key_hash',
          'api_keys.scope',
          'api_keys.entity_scopes',
          'api_keys.revoked_at',
          'api_keys.expires_at',
        ])
        .where('api_keys.id', '=', id)
        .executeTakeFirst();
      return row && { ...row, entities: entitiesOf(row.entities), entity_scopes: scopesOf(row.entity_scopes) };
    },

    async revoke(id) {
      const found = await k.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
      if (!found) return false;
      await k.updateTable('api_keys').set({ revoked_at: nowIso() }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      return true;
    },

    async rotate(oldId, replacement, oldExpiresAt) {
      return k.transaction().execute(async (tx) => {
        const old = await tx.selectFrom('api_keys').selectAll().where('id', '=', oldId).executeTakeFirst();
        if (!old) throw new ApiKeyError(`No key ${oldId}`);
        const now = nowIso();
        if (old.revoked_at !== null || (old.expires_at !== null && old.expires_at <= now))
          throw new ApiKeyError(`Key ${oldId} is already revoked or expired: create a new key instead`);
        await tx
          .insertInto('api_keys')
          .values({
            id: replacement.id,
            username: old.username,
            key_hash: replacement.key_hash,
            name: old.name,
            scope: old.scope,
            entity_scopes: old.entity_scopes,
            created_at: now,
          })
          .execute();
        const retire = oldExpiresAt ? { expires_at: oldExpiresAt } : { revoked_at: now };
        await tx.updateTable('api_keys').set(retire).where('id', '=', oldId).execute();
        const user = await tx.selectFrom('auth_users').select('entities').where('username', '=', old.username).executeTakeFirstOrThrow();
        return {
          id: replacement.id,
          username: old.username,
          entities: entitiesOf(user.entities),
          name: old.name,
          scope: old.scope,
          entity_scopes: scopesOf(old.entity_scopes),
          created_at: now,
          last_used_at: null,
          revoked_at: null,
          expires_at: null,
        };
      });
    },

    async touch(id, at = nowIso()) {
      await k.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
