/**
 * Turns an `Authorization` header into a Principal, and decides which
 * entities (tenants) that principal may touch.
 *
 * Pure functions over an AuthConfig: the HTTP layer picks the scheme for each
 * operation from the OpenAPI spec, calls `authenticate`, and maps a failure
 * to a 401 with the given `WWW-Authenticate` header (or 403 for authz).
 */
import {
  ALL_ENTITIES,
  type AuthConfig,
  type AuthResult,
  type AuthScheme,
  type AuthzResult,
  type DatabaseKeys,
  type EntityScopes,
  type Principal,
} from './auth-types.ts';
import { grants, type Access } from '@weft/types/spec';
import { levelOn, withEntityScopes } from './key-scope.ts';
import { decodeBasicCredentials, parseAuthorizationHeader } from './authorization-header.ts';
import { apiKeyId, createKeyVerifier, keyMatchesHash } from './keys.ts';

export interface Authenticator {
  authenticate(authorization: string | undefined, scheme: AuthScheme): Promise<AuthResult>;
  authorizeProject(principal: Principal, projectId: string): AuthzResult;
  authorizeEntity(principal: Principal, entity: string): AuthzResult;
  defaultEntity(principal: Pick<Principal, 'username' | 'entities'>): string;
}

const SCHEME_NAME: Record<AuthScheme, string> = { basic: 'Basic', bearer: 'Bearer' };

/** How often a key's last use is written, at most (per key and process): a use is not a write. */
const TOUCH_EVERY_MS = 60_000;

export function createAuthenticator(config: AuthConfig, databaseKeys?: DatabaseKeys): Authenticator {
  // One frozen principal per user, shared by all requests: handlers cannot
  // widen a user's entities by mutating what they were given.
  const principals = new Map<string, Principal>();
  const entries: { hash: string; owner: Principal }[] = [];
  for (const user of config.users) {
    const entities = Object.freeze([...user.entities]);
    const scope = frozenScope(user.scope ?? 'admin', user.entityScopes);
    principals.set(user.username, Object.freeze({ username: user.username, entities, keyId: '', ...scope }));
    for (const hash of user.apiKeyHashes) {
      // One principal per key, so a limit or a log can tell a user's keys apart.
      entries.push({
        hash,
        owner: Object.freeze({ username: user.username, entities, keyId: hash.slice('sha256:'.length, 'sha256:'.length + 16), ...scope }),
      });
    }
  }
  const findFileOwner = createKeyVerifier(entries);
  const touched = new Map<string, number>();

  /**
   * The auth file's keys first (in memory), then the database's: found by the key's public id and
   * compared through its hash in constant time. Read on every request, not cached, so a revoke
   * or an expiry holds on every replica from the next request on.
   */
  async function findOwner(key: string): Promise<Principal | string | undefined> {
    const fromFile = findFileOwner(key);
    if (fromFile || !databaseKeys) return fromFile;
    const id = apiKeyId(key);
    if (id === undefined) return undefined;
    const row = await databaseKeys.find(id);
    if (!row || !keyMatchesHash(key, row.key_hash)) return undefined;
    // Only the key's holder learns that it was revoked or expired (the hash matched).
    const now = new Date().toISOString();
    if (row.revoked_at !== null) return 'API key revoked';
    if (row.expires_at !== null && row.expires_at <= now) return 'API key expired';
    const last = touched.get(id) ?? 0;
    if (Date.now() - last >= TOUCH_EVERY_MS) {
      touched.set(id, Date.now());
      // Last use is advisory: a failed write must not fail the request it describes.
      databaseKeys.touch(id, now).catch(() => touched.delete(id));
    }
    return Object.freeze({
      username: row.username,
      entities: Object.freeze([...row.entities]),
      keyId: id,
      ...frozenScope(row.scope, row.entity_scopes),
    });
  }

  async function authenticate(authorization: string | undefined, scheme: AuthScheme): Promise<AuthResult> {
    const expected = SCHEME_NAME[scheme];
    const fail = (reason: string): AuthResult => ({
      ok: false,
      status: 401,
      reason,
      wwwAuthenticate: `${expected} realm="weft"`,
    });

    if (authorization === undefined || authorization.trim() === '') return fail('Missing credentials');
    const header = parseAuthorizationHeader(authorization);
    if (header === undefined) return fail('Missing credentials');
    if (header.scheme !== scheme) {
      return fail(`This operation requires ${expected} authentication`);
    }

    if (scheme === 'bearer') {
      const token = header.credentials;
      if (token === '') return fail('Missing bearer token');
      if (/\s/.test(token)) return fail('Malformed bearer token');
      const owner = await findOwner(token);
      if (typeof owner === 'string') return fail(owner);
      return owner ? { ok: true, principal: owner } : fail('Invalid API key');
    }

    const basic = decodeBasicCredentials(header.credentials);
    if (basic === undefined) {
      return fail('Malformed Basic credentials: expected base64 of "<username>:<api key>"');
    }
    if (basic.password === '') return fail('Missing API key in Basic credentials (it goes in the password)');
    // Verify the key before looking at the username so the work done does not
    // depend on whether the username is known.
    const owner = await findOwner(basic.password);
    if (typeof owner === 'string') return fail(owner);
    if (owner === undefined) return fail('Invalid API key');
    // SDKs send a placeholder username such as "api", so any unknown name is
    // accepted. Naming a *different* known user is a contradiction we refuse
    // rather than silently acting as the key's owner.
    if (basic.username !== owner.username && principals.has(basic.username)) {
      return fail(`API key does not belong to user "${basic.username}"`);
    }
    return { ok: true, principal: owner };
  }

  return { authenticate, authorizeProject, authorizeEntity, defaultEntity };
}

/** A project id is `<entity>/<project>`; access follows the entity. */
export function authorizeProject(principal: Principal, projectId: string): AuthzResult {
  const slash = projectId.indexOf('/');
  if (slash <= 0 || slash === projectId.length - 1) {
    // Shape checks belong to the request validator; here anything odd is simply not allowed.
    return { ok: false, status: 403, reason: `Malformed project id "${projectId}": expected "<entity>/<project>"` };
  }
  return authorizeEntity(principal, projectId.slice(0, slash));
}

export function authorizeEntity(principal: Principal, entity: string): AuthzResult {
  // "*" is file syntax meaning "all", never an entity name, so it cannot be requested.
  const validName = entity !== '' && entity !== ALL_ENTITIES && !entity.includes('/');
  if (!validName || !(principal.entities.includes(ALL_ENTITIES) || principal.entities.includes(entity))) {
    return { ok: false, status: 403, reason: `User "${principal.username}" may not access entity "${entity}"` };
  }
  // A key with levels per entity: the operation was let through on the key's highest level; here
  // is the level on the entity it touches.
  const { operation } = principal;
  if (operation !== undefined) {
    const level = levelOn(principal, entity);
    if (!grants(level, operation.access))
      return {
        ok: false,
        status: 403,
        reason: `This API key has ${level} scope on entity "${entity}"; ${operation.name} needs ${operation.access}`,
      };
  }
  return { ok: true };
}

/** A principal's scope fields, frozen with it: the map is shared by every request of the key. */
function frozenScope(scope: Access, entityScopes: EntityScopes | null | undefined): Pick<Principal, 'scope' | 'entityScopes'> {
  const key = withEntityScopes(scope, entityScopes && { ...entityScopes });
  return key.entityScopes ? { scope, entityScopes: Object.freeze(key.entityScopes) } : { scope };
}

/**
 * The entity used when a client does not name one (ART sends `entity: null`).
 * That is the user's first listed entity; a wildcard-only user (the local
 * single-user mode) gets an entity named after themselves.
 */
export function defaultEntity(principal: Pick<Principal, 'username' | 'entities'>): string {
  return principal.entities.find((e) => e !== ALL_ENTITIES) ?? principal.username;
}
