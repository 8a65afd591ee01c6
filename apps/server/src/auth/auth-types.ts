/**
 * Shared types for Weft authentication and tenancy.
 *
 * Kept in their own file so the HTTP layer can import the shapes without
 * pulling in `node:crypto` or `node:fs`.
 */
import type { Access } from '@weft/types/spec';

/** A key's levels for named entities, over its one level for the others (key-scope.ts). */
export type EntityScopes = Readonly<Record<string, Access>>;

/**
 * The entity wildcard. A user whose `entities` contain `"*"` may access every
 * entity. It exists for the zero-config single-user local mode (where SDK
 * users call `init('<any entity>/<project>')` with names of their own
 * choosing); a multi-user deployment should list entities explicitly.
 */
export const ALL_ENTITIES = '*';

export interface AuthUser {
  readonly username: string;
  /** Entity names the user may access; may include {@link ALL_ENTITIES}. The first real name is the default entity. */
  readonly entities: readonly string[];
  /** Key hashes in the form `sha256:<64 lowercase hex>`; plaintext keys are never kept. */
  readonly apiKeyHashes: readonly string[];
  /** What the user's keys may do (`scope:` in the file); unset: `admin`, everything. */
  readonly scope?: Access;
  /** Levels for named entities (`scope: {acme: write, "*": read}` in the file), over `scope`. */
  readonly entityScopes?: EntityScopes;
}

export interface AuthConfig {
  readonly users: readonly AuthUser[];
}

/** Who made a request, once their key has been verified. */
export interface Principal {
  readonly username: string;
  readonly entities: readonly string[];
  /** Which of the user's keys was used: a prefix of its stored hash (never the key), e.g. for rate limits. */
  readonly keyId: string;
  /** What the key may do on entities `entityScopes` does not name: an operation needing more (its `x-weft-access`) is a 403. */
  readonly scope: Access;
  /** The key's levels for named entities (key-scope.ts); absent when it has one level everywhere. */
  readonly entityScopes?: EntityScopes;
  /**
   * Set for one request of a key with `entityScopes` (forOperation): the operation and what it
   * needs, checked against the level on the entity it touches.
   */
  readonly operation?: { readonly name: string; readonly access: Access };
}

export type AuthScheme = 'basic' | 'bearer';

export type AuthResult = { ok: true; principal: Principal } | { ok: false; status: 401; reason: string; wwwAuthenticate: string };

export type AuthzResult = { ok: true } | { ok: false; status: 403; reason: string };

/** Keys kept in the database (`weft keys create`), read on each request that presents one. */
export interface DatabaseKeys {
  find(id: string): Promise<
    | {
        username: string;
        entities: readonly string[];
        key_hash: string;
        scope: Access;
        entity_scopes: EntityScopes | null;
        revoked_at: string | null;
        expires_at: string | null;
      }
    | undefined
  >;
  /** Records a use; called at most once a minute per key and process. */
  touch(id: string, at: string): Promise<void>;
}
