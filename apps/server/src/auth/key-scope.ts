// A key's scope: what it may do (read, write, admin), on every entity or per entity. One level
// (`read`) covers each entity the key's user may access; levels for named entities
// (`acme=write`) override it there. Written the same way on the command line (`--scope`), in the
// auth file (`scope:`) and by `keys list`, and stored as a level plus a JSON map.
import { ACCESS_LEVELS, grants, type Access } from '@weft/types/spec';
import { ALL_ENTITIES, type EntityScopes, type Principal } from './auth-types.ts';

export interface KeyScope {
  /** The level on every entity `entityScopes` does not name. */
  readonly scope: Access;
  /** Levels for named entities; absent when the key has one level everywhere. */
  readonly entityScopes?: EntityScopes;
}

const isAccess = (value: unknown): value is Access => (ACCESS_LEVELS as readonly unknown[]).includes(value);

const EXPECTED = `expected read, write, admin or <entity>=<level> (e.g. acme=write)`;

/**
 * The `--scope` values of a command line, each a level or `<entity>=<level>`, in any order. A
 * second plain level, or a second level for one entity, is an error rather than "the last wins".
 */
export function parseScopeArgs(values: readonly string[]): KeyScope {
  let scope: Access | undefined;
  const entityScopes: Record<string, Access> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq < 0) {
      if (!isAccess(value)) throw new Error(`--scope ${value}: ${EXPECTED}`);
      if (scope !== undefined && scope !== value) throw new Error(`--scope given twice without an entity (${scope}, ${value})`);
      scope = value;
      continue;
    }
    const entity = value.slice(0, eq);
    const level = value.slice(eq + 1);
    if (!isAccess(level) || !isEntityName(entity)) throw new Error(`--scope ${value}: ${EXPECTED}`);
    if (entityScopes[entity] !== undefined && entityScopes[entity] !== level)
      throw new Error(`--scope gives entity "${entity}" two levels (${entityScopes[entity]}, ${level})`);
    entityScopes[entity] = level;
  }
  return withEntityScopes(scope ?? 'admin', entityScopes);
}

/** A scope with its map dropped when empty, so "one level everywhere" has one form. */
export function withEntityScopes(scope: Access, entityScopes: Record<string, Access> | null | undefined): KeyScope {
  return entityScopes && Object.keys(entityScopes).length > 0 ? { scope, entityScopes } : { scope };
}

/** An entity name as `<entity>/<project>` ids have it: no slash, no wildcard, no whitespace. */
export function isEntityName(name: string): boolean {
  return name !== '' && !/[/\s*=]/.test(name);
}

/** `read`, or `read; acme=write, lab=admin` (entities sorted): how `keys list` and messages show a scope. */
export function describeScope(key: KeyScope): string {
  const named = Object.entries(key.entityScopes ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([entity, level]) => `${entity}=${level}`);
  return named.length === 0 ? key.scope : `${key.scope}; ${named.join(', ')}`;
}

/** The entities a scope names that its user may not access: naming them would grant nothing. */
export function entitiesOutsideUser(key: KeyScope, entities: readonly string[]): string[] {
  if (entities.includes(ALL_ENTITIES)) return [];
  return Object.keys(key.entityScopes ?? {}).filter((e) => !entities.includes(e));
}

/** The most the key may do anywhere: what an operation is first checked against, before its body is read. */
export function highestLevel(key: KeyScope): Access {
  let best = key.scope;
  for (const level of Object.values(key.entityScopes ?? {})) if (grants(level, best)) best = level;
  return best;
}

export function levelOn(key: KeyScope, entity: string): Access {
  return key.entityScopes?.[entity] ?? key.scope;
}

/**
 * The principal for one operation of a key with levels per entity: it carries what the operation
 * needs, so the tenancy check of its entity (authorizeEntity) also checks the level there. A key
 * with one level everywhere was checked whole before the body was read and is returned as is.
 */
export function forOperation(principal: Principal, operation: NonNullable<Principal['operation']>): Principal {
  return principal.entityScopes === undefined ? principal : Object.freeze({ ...principal, operation });
}
