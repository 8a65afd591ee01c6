// Pydantic sends every unset optional field as null, so in every operation a pydantic client
// calls (Weave's, by tag), every optional request field must accept null as "not given", at any
// depth. The spec-examples test shows the server then answers the same; this walks the whole
// request schemas, including fields no example uses.
import { expect, it } from 'vitest';
import type { OpenApiDocument } from '@weft/types/spec';
import { deref } from '@weft/types/spec';
import { spec } from '../../src/http/spec.ts';

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

const PYDANTIC_TAGS = new Set(['objects', 'tables', 'calls', 'files', 'feedback', 'costs', 'annotation-queues', 'graphql']);
const doc = spec as unknown as OpenApiDocument;
const resolve = (s: Schema): Schema => deref<Schema>(doc, s);

function acceptsNull(schema: Schema): boolean {
  const s = resolve(schema);
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || s.enum?.includes(null)) return true;
  if (s.oneOf ?? s.anyOf) return [...(s.oneOf ?? []), ...(s.anyOf ?? [])].some(acceptsNull);
  // No type at all (`{}`, free-form values) takes anything.
  return s.type === undefined && !s.enum && !s.allOf && !s.properties;
}

function optionalsRefusingNull(schema: Schema, where: string, out: string[], seen: Set<Schema>): void {
  const s = resolve(schema);
  if (seen.has(s)) return;
  seen.add(s);
  const parts = [s, ...[...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])].map(resolve)];
  for (const part of parts) {
    if (part !== s) optionalsRefusingNull(part, where, out, seen);
    const required = new Set(part.required ?? []);
    for (const [name, p] of Object.entries(part.properties ?? {})) {
      if (!required.has(name) && !acceptsNull(p)) out.push(`${where}.${name}`);
      optionalsRefusingNull(p, `${where}.${name}`, out, new Set(seen));
    }
  }
  if (s.items) optionalsRefusingNull(s.items, `${where}[]`, out, seen);
  // The values of a map (cost/create's model id → price).
  if (typeof s.additionalProperties === 'object') optionalsRefusingNull(s.additionalProperties, `${where}{}`, out, seen);
}

it('every optional request field of a Weave operation accepts null', () => {
  const refusing: string[] = [];
  let operations = 0;
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item as Record<string, { tags?: string[]; operationId?: string; requestBody?: unknown }>)) {
      if (!op.tags?.some((t) => PYDANTIC_TAGS.has(t)) || !op.requestBody) continue;
      const content = deref<{ content: Record<string, { schema: Schema }> }>(doc, op.requestBody as never).content;
      const json = content['application/json'];
      if (!json) continue;
      operations++;
      optionalsRefusingNull(json.schema, op.operationId!, refusing, new Set());
    }
  expect(operations).toBeGreaterThan(25);
  expect(refusing).toEqual([]);
});
