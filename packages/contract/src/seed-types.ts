// The seed writes types in words ("integer or null", "Tool[]", "any JSON value"); the spec in
// JSON Schema. seedTypeToSchema says what each seed type means in JSON Schema; typeMismatches
// says how a property of the spec differs from that meaning.
import { deref, isReference, resolvePointer, type OpenApiDocument } from '@weft/types/spec';

export type JsonSchema = Record<string, unknown>;

/** Names a component schema for a seed type name ("Trajectory", "sort item"), or undefined. */
export type SchemaNamer = (seedName: string) => string | undefined;

const PLAIN_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

/**
 * The JSON Schema a seed type stands for. Only the type is described: a `string` in the seed may
 * carry a pattern or format in the spec, so none is demanded here (except `date-time` for
 * `datetime`, which is the seed's own word for it). Unknown words throw, so a new kind of type in
 * the seed cannot slip through as "no constraint".
 */
export function seedTypeToSchema(seedType: string, schemaNamed: SchemaNamer): JsonSchema {
  const nullable = /^(.+) or null$/.exec(seedType);
  if (nullable) {
    const base = seedTypeToSchema(nullable[1]!, schemaNamed);
    // Only a typed base can take `null` into its `type`; "Tool or null" would need anyOf, which no
    // field of the seed uses yet.
    if (typeof base.type !== 'string') throw new Error(`"${seedType}": only plain types and arrays can be "or null"`);
    return { ...base, type: [base.type, 'null'] };
  }
  const list = /^(.+)\[\]$/.exec(seedType);
  if (list) return { type: 'array', items: seedTypeToSchema(list[1]!, schemaNamed) };
  if (seedType === 'any JSON value') return {};
  if (seedType === 'datetime') return { type: 'string', format: 'date-time' };
  if (PLAIN_TYPES.has(seedType)) return { type: seedType };
  const component = schemaNamed(seedType);
  if (component !== undefined) return { $ref: `#/components/schemas/${component}` };
  throw new Error(`unknown seed type "${seedType}"`);
}

// number includes integer, so these six are "every JSON value".
const EVERY_TYPE = ['array', 'boolean', 'null', 'number', 'object', 'string'];

/**
 * How `actual` (a schema from the spec) differs from the type `expected` describes; empty when it
 * fits. `$ref`s in `actual` count with the referenced schema's type; an expected `$ref` must be
 * reached by following them. Other keywords (pattern, enum, minimum, description...) are ignored.
 */
export function typeMismatches(doc: OpenApiDocument, expected: JsonSchema, actual: unknown, at: string): string[] {
  if (typeof expected.$ref === 'string') {
    const refs = refsFollowed(doc, actual);
    return refs.includes(expected.$ref) ? [] : [`${at}: expected a $ref to ${expected.$ref}, the spec has ${show(actual)}`];
  }
  const resolved = deref<JsonSchema>(doc, actual as JsonSchema);
  if (typeof resolved !== 'object' || resolved === null) return [`${at}: expected a schema, the spec has ${show(actual)}`];
  const got = typesOf(resolved);

  if (expected.type === undefined) {
    // "any JSON value": nothing may narrow it, neither a type nor a combinator or enum.
    const narrowing = ['anyOf', 'oneOf', 'allOf', 'enum', 'const', 'not'].filter((keyword) => keyword in resolved);
    const anyType = got.length === 0 || EVERY_TYPE.every((type) => got.includes(type));
    return anyType && narrowing.length === 0 ? [] : [`${at}: expected any JSON value, the spec has ${show(resolved)}`];
  }

  const problems: string[] = [];
  const want = typesOf(expected);
  if (want.join() !== got.join()) problems.push(`${at}: expected type ${want.join(' or ')}, the spec has ${got.join(' or ') || 'no type'}`);
  if (expected.format !== undefined && resolved.format !== expected.format) {
    problems.push(
      `${at}: expected format ${text(expected.format)}, the spec has ${resolved.format === undefined ? 'none' : text(resolved.format)}`,
    );
  }
  if (expected.items !== undefined) {
    if (resolved.items === undefined) problems.push(`${at}: expected items ${show(expected.items)}, the spec has no items`);
    else problems.push(...typeMismatches(doc, expected.items as JsonSchema, resolved.items, `${at}[]`));
  }
  return problems;
}

/** A schema keyword's value as message text (strings as they are). */
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The `type` keyword as a sorted list (`'string'` → `['string']`, absent → `[]`). */
function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  if (type === undefined) return [];
  return (Array.isArray(type) ? type.map(text) : [text(type)]).sort();
}

/** Every `$ref` met while following `schema`, one hop at a time, to what it finally names. */
function refsFollowed(doc: OpenApiDocument, schema: unknown): string[] {
  const refs: string[] = [];
  let current = schema;
  while (isReference(current) && !refs.includes(current.$ref)) {
    refs.push(current.$ref);
    current = resolvePointer(doc, current.$ref);
  }
  return refs;
}

const show = (schema: unknown) => JSON.stringify(schema);
