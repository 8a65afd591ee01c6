/**
 * The auth file: which users exist, which entities each may access, and the
 * hashes of their API keys.
 *
 * ```yaml
 * users:
 *   - username: alice
 *     entities: [acme, alice]     # first entry is alice's default entity
 *     api_keys: ["sha256:<64 lowercase hex>"]
 *   - username: dashboard
 *     entities: [acme]
 *     scope: read                 # read, write or admin (the default): what its keys may do
 *     api_keys: ["sha256:<64 lowercase hex>"]
 *   - username: reviewer
 *     entities: [acme, lab]
 *     scope: {"*": read, lab: write}   # per entity; "*": every entity not named (default admin)
 *     api_keys: ["sha256:<64 lowercase hex>"]
 * ```
 *
 * `entities: ["*"]` grants every entity (see ALL_ENTITIES); it is meant for
 * single-user local setups. Keys are only accepted in hashed form; add keys
 * with `weft keys add`.
 *
 * Validation is strict and reports every problem at once, each with its
 * path, so an operator can fix the file in one pass instead of restarting
 * the server once per typo.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, stringify } from 'yaml';
import { ACCESS_LEVELS, type Access } from '@weft/types/spec';
import { ALL_ENTITIES, type AuthConfig, type AuthUser } from './auth-types.ts';
import { isApiKeyHash } from './keys.ts';
import { entitiesOutsideUser, isEntityName, withEntityScopes, type KeyScope } from './key-scope.ts';

const USER_FIELDS = new Set(['username', 'entities', 'api_keys', 'scope']);
const ADD_KEY_HINT = 'weft keys add --file <auth file> --user <name> --entity <entity>';

/** Parses and validates auth file text. `source` names the file in error messages. */
export function parseAuthFile(text: string, source: string): AuthConfig {
  const lineCounter = new LineCounter();
  // prettyErrors is off because the pretty form quotes source lines, and a
  // syntax error next to a pasted plaintext key would echo it into logs.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw invalid(
      source,
      doc.errors.map((e) => {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        return `line ${line}, column ${col}: ${e.message}`;
      }),
    );
  }
  const problems: string[] = [];
  const config = validate(doc.toJS(), problems);
  if (problems.length > 0) throw invalid(source, problems);
  return config;
}

/** Thrown by loadAuthFile when the file does not exist, so callers can create it. */
export class AuthFileNotFoundError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`Auth file not found: ${path} (create it and add a key with: ${ADD_KEY_HINT})`);
    this.name = 'AuthFileNotFoundError';
    this.path = path;
  }
}

/** Reads and validates an auth file. Synchronous: it runs once at startup or in the CLI. */
export function loadAuthFile(path: string): AuthConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AuthFileNotFoundError(path);
    throw new Error(`Cannot read auth file ${path}: ${(err as Error).message}`, { cause: err });
  }
  return parseAuthFile(text, path);
}

/** Renders a config in the auth file format, optionally under a `#` comment header. */
export function formatAuthFile(config: AuthConfig, header?: string): string {
  const body = stringify({
    users: config.users.map((u) => ({
      username: u.username,
      entities: [...u.entities],
      // Written only when narrowed, so a file without scopes reads back the same.
      ...scopeField(u),
      api_keys: [...u.apiKeyHashes],
    })),
  });
  if (header === undefined) return body;
  const comment = header
    .split('\n')
    .map((l) => (l === '' ? '#' : `# ${l}`))
    .join('\n');
  return `${comment}\n${body}`;
}

function invalid(source: string, problems: readonly string[]): Error {
  return new Error(`Invalid auth file ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

function validate(root: unknown, problems: string[]): AuthConfig {
  if (!isRecord(root)) {
    problems.push('expected a mapping with a "users" list at the top level');
    return { users: [] };
  }
  for (const key of Object.keys(root)) {
    if (key !== 'users') problems.push(`${key}: unknown field (expected only "users")`);
  }
  const rawUsers = root['users'];
  if (!Array.isArray(rawUsers)) {
    problems.push('users: expected a list of users');
    return { users: [] };
  }
  if (rawUsers.length === 0) problems.push('users: expected at least one user');

  const users: AuthUser[] = [];
  const firstUserPath = new Map<string, string>();
  const firstKeyPath = new Map<string, { path: string; user: number }>();
  rawUsers.forEach((raw: unknown, i) => {
    const at = `users[${i}]`;
    if (!isRecord(raw)) {
      problems.push(`${at}: expected a mapping with username, entities and api_keys`);
      return;
    }
    for (const key of Object.keys(raw)) {
      if (!USER_FIELDS.has(key)) {
        problems.push(`${at}.${key}: unknown field (expected username, entities, api_keys, scope)`);
      }
    }
    const username = validateUsername(raw['username'], `${at}.username`, problems);
    if (username !== undefined) {
      const previous = firstUserPath.get(username);
      if (previous !== undefined) {
        problems.push(`${at}.username: duplicate username "${username}" (also at ${previous})`);
      } else {
        firstUserPath.set(username, `${at}.username`);
      }
    }
    const entities = validateEntities(raw['entities'], `${at}.entities`, problems);
    const hashes = validateKeyHashes(raw['api_keys'], `${at}.api_keys`, problems, (hash, path) => {
      const previous = firstKeyPath.get(hash);
      if (previous === undefined) {
        firstKeyPath.set(hash, { path, user: i });
      } else if (previous.user === i) {
        problems.push(`${path}: duplicate key hash (same as ${previous.path})`);
      } else {
        // One key must identify exactly one user, or tenancy is ambiguous.
        problems.push(`${path}: key hash is also used by another user (${previous.path})`);
      }
    });
    const scope = validateScope(raw['scope'], entities, `${at}.scope`, problems);
    if (username !== undefined) {
      users.push({ username, entities, apiKeyHashes: hashes.map((h) => h.hash), ...scope });
    }
  });
  return { users };
}

const isLevel = (value: unknown): value is Access => (ACCESS_LEVELS as readonly unknown[]).includes(value);

/** `scope: read`, or `scope: {"*": read, lab: write}`: levels per entity over "*" (admin when absent). */
function validateScope(value: unknown, entities: readonly string[], at: string, problems: string[]): Partial<KeyScope> {
  if (value === undefined) return {};
  if (isLevel(value)) return { scope: value };
  if (!isRecord(value)) {
    problems.push(`${at}: expected one of ${ACCESS_LEVELS.join(', ')}, or a mapping from entity ("*" for the others) to one of them`);
    return {};
  }
  const named: Record<string, Access> = {};
  for (const [entity, level] of Object.entries(value)) {
    if (entity !== ALL_ENTITIES && !isEntityName(entity)) problems.push(`${at}.${entity}: not an entity name`);
    else if (!isLevel(level)) problems.push(`${at}.${entity}: expected one of ${ACCESS_LEVELS.join(', ')}`);
    else if (entity !== ALL_ENTITIES) named[entity] = level;
  }
  const key = withEntityScopes(isLevel(value[ALL_ENTITIES]) ? value[ALL_ENTITIES] : 'admin', named);
  for (const entity of entitiesOutsideUser(key, entities))
    problems.push(`${at}.${entity}: not one of this user's entities (a level there would grant nothing)`);
  return key;
}

/** The `scope:` a user is written with: none for admin everywhere, a level, or the per-entity mapping. */
export function scopeField(user: AuthUser): { scope?: Access | Record<string, Access> } {
  const level = user.scope ?? 'admin';
  if (user.entityScopes) return { scope: { ...(level === 'admin' ? {} : { [ALL_ENTITIES]: level }), ...user.entityScopes } };
  return level === 'admin' ? {} : { scope: level };
}

function validateUsername(value: unknown, at: string, problems: string[]): string | undefined {
  if (typeof value !== 'string') {
    problems.push(
      value === undefined ? `${at}: required` : `${at}: expected a string (quote it if it looks like a number, boolean or null)`,
    );
    return undefined;
  }
  if (value.trim() === '') {
    problems.push(`${at}: must not be empty`);
    return undefined;
  }
  // A colon cannot travel in the user-id part of Basic credentials (RFC 7617),
  // and a slash would break using the name as a fallback default entity.
  if (/[:/\s]/.test(value)) {
    problems.push(`${at}: "${value}" must not contain ":", "/" or whitespace`);
    return undefined;
  }
  return value;
}

function validateEntities(value: unknown, at: string, problems: string[]): string[] {
  if (!Array.isArray(value)) {
    problems.push(value === undefined ? `${at}: required (a list of entity names)` : `${at}: expected a list of entity names`);
    return [];
  }
  if (value.length === 0) problems.push(`${at}: expected at least one entity`);
  const entities: string[] = [];
  value.forEach((entity: unknown, j) => {
    const path = `${at}[${j}]`;
    if (typeof entity !== 'string' || entity === '') {
      problems.push(`${path}: expected a non-empty string`);
    } else if (entity !== ALL_ENTITIES && /[/\s*]/.test(entity)) {
      // Entities are the first segment of "<entity>/<project>" ids.
      problems.push(`${path}: "${entity}" must not contain "/", "*" or whitespace ("*" alone means all entities)`);
    } else {
      entities.push(entity);
    }
  });
  return entities;
}

function validateKeyHashes(
  value: unknown,
  at: string,
  problems: string[],
  checkUnique: (hash: string, path: string) => void,
): { hash: string; path: string }[] {
  if (!Array.isArray(value)) {
    problems.push(
      value === undefined
        ? `${at}: required (a list of key hashes; it may be empty)`
        : `${at}: expected a list of "sha256:<64 hex chars>" key hashes`,
    );
    return [];
  }
  const hashes: { hash: string; path: string }[] = [];
  value.forEach((key: unknown, j) => {
    const path = `${at}[${j}]`;
    if (typeof key === 'string' && isApiKeyHash(key)) {
      hashes.push({ hash: key, path });
      checkUnique(key, path);
    } else if (typeof key === 'string' && !key.startsWith('sha256:')) {
      // Deliberately does not quote the value: it may be a real key.
      problems.push(
        `${path}: expected "sha256:<64 hex chars>"; plaintext keys must not be stored in the file, create keys with: ${ADD_KEY_HINT}`,
      );
    } else {
      problems.push(`${path}: expected "sha256:<64 hex chars>" (lowercase hex)`);
    }
  });
  return hashes;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
