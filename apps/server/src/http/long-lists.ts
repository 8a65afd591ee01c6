// Request bodies with a long list are validated a slice at a time. express-openapi-validator runs
// ajv over the whole body in one go: a valid 20 MB call batch of 100,000 items held the event loop
// for 61 ms, and the body limit allows more. So each list in a body schema (a property that is
// an array, or one of an object property: `batch`, `table.rows`; not one with maxItems, minItems
// over 1 or uniqueItems, which the validator must see whole) that arrives longer than
// SLICE_MIN_ITEMS has its items checked here against the list's item schema, with a turn for the
// event loop every TURN_MS, stopping at the first invalid item (as the validator does for a large
// body). The validator then checks the rest of the body with the list cut to its first item, and
// the list is put back. Same ajv options, same messages and defaults, same 422 body.
import { TurnClock } from '@weft/core';
import type { Request } from 'express';
import type { SpecOperation } from '@weft/types/spec';
import { spec } from './spec.ts';
import { check, specValidator } from './spec-ajv.ts';
import type { PathKey } from './body/json-stream-parser.ts';

const SLICE_MIN_ITEMS = 1000;

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
}

export interface ListPath {
  /** Property names from the body to the list. */
  keys: string[];
  /** JSON pointer of the item schema in the bundled spec. */
  itemPointer: string;
  /** Whether the item schema asks only that an item be an object (`table.rows`): see itemsKeptAsText. */
  anyObjectItems: boolean;
}

const isType = (s: Schema, t: string) => s.type === t || (Array.isArray(s.type) && s.type.includes(t));

function resolve(schema: Schema, pointer: string): [Schema, string] {
  if (!schema.$ref) return [schema, pointer];
  const target = schema.$ref.replace(/^#/, '');
  const found = target
    .split('/')
    .filter(Boolean)
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], spec) as Schema | undefined;
  if (!found) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(found, target);
}

/** The lists of an operation's JSON body, two levels deep, from the spec. */
export function listPaths(op: Pick<SpecOperation, 'method' | 'path'>): ListPath[] {
  const operation = (spec as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>> })
    .paths[op.path]?.[op.method.toLowerCase()];
  const bodySchema = operation?.requestBody?.content?.['application/json']?.schema;
  if (!bodySchema) return [];
  const out: ListPath[] = [];
  const walk = (schema: Schema, pointer: string, keys: string[]) => {
    const [s, at] = resolve(schema, pointer);
    for (const [name, property] of Object.entries(s.properties ?? {})) {
      const [p, pAt] = resolve(property, `${at}/properties/${name}`);
      // A list with a bound on its length or a rule across items is left whole to the validator
      // (a cut list would pass its maxItems); those have no room for many items anyway.
      const whole = p.maxItems !== undefined || (p.minItems ?? 0) > 1 || p.uniqueItems === true;
      if (isType(p, 'array') && p.items && !whole)
        out.push({ keys: [...keys, name], itemPointer: `${pAt}/items`, anyObjectItems: isAnyObject(resolve(p.items, `${pAt}/items`)[0]) });
      else if (isType(p, 'object') && keys.length === 0) walk(p, pAt, [name]);
    }
  };
  walk(bodySchema, '', []);
  return out;
}

/** Keywords that leave an object schema accepting every object. */
const ANY_OBJECT_KEYWORDS = new Set(['type', 'additionalProperties', 'description', 'title']);

function isAnyObject(schema: Schema): boolean {
  const { type, additionalProperties } = schema as Schema & { additionalProperties?: unknown };
  return (
    type === 'object' &&
    (additionalProperties === undefined || additionalProperties === true) &&
    Object.keys(schema).every((k) => ANY_OBJECT_KEYWORDS.has(k))
  );
}

/**
 * Where a lossless body's items may stay as their text, unparsed (parse-json-chunks.ts): the
 * items of its lists of any objects, which validation checks only for being objects.
 */
export function itemsKeptAsText(paths: readonly ListPath[]): ((path: readonly PathKey[]) => boolean) | undefined {
  const lists = paths.filter((p) => p.anyObjectItems).map((p) => p.keys);
  if (lists.length === 0) return undefined;
  return (path) =>
    lists.some((keys) => path.length === keys.length + 1 && typeof path[keys.length] === 'number' && keys.every((k, i) => path[i] === k));
}

/** Puts back what was cut. */
export type Restore = () => void;

/**
 * Validates the long lists of `req.body` item by item and cuts them to their first item for the
 * validator. Throws the validator's kind of error (400 with `errors`, answered 422) at the first
 * invalid item.
 */
export async function validateLongLists(req: Request, paths: readonly ListPath[]): Promise<Restore | undefined> {
  const restores: Restore[] = [];
  const clock = new TurnClock();
  for (const { keys, itemPointer } of paths) {
    const parent = keys.slice(0, -1).reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), req.body as unknown);
    const key = keys[keys.length - 1]!;
    if (!isObject(parent)) continue;
    const list: unknown = parent[key];
    if (!Array.isArray(list) || list.length <= SLICE_MIN_ITEMS) continue;
    const items = list as unknown[];
    const validate = specValidator(itemPointer);
    for (let i = 0; i < items.length; i++) {
      const problems = check(validate, items[i], `/body/${keys.join('/')}/${i}`);
      if (problems.length > 0) {
        for (const restore of restores) restore();
        throw Object.assign(new Error('request body is invalid'), { status: 400, errors: problems });
      }
      if (clock.due) await clock.pass();
    }
    parent[key] = items.slice(0, 1);
    restores.push(() => {
      parent[key] = items;
    });
  }
  return restores.length === 0 ? undefined : () => restores.forEach((restore) => restore());
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
