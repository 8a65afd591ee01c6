// A request example as pydantic would serialize it: every optional field the example leaves out
// written as null (the Weave Python SDK's `model_dump_json()` sends unset optionals that way).
// Walks the request schema beside the value: objects' properties (through $ref and allOf), the
// values of maps (additionalProperties), array items, and the object branch of a `oneOf` with null.
import type { OpenApiDocument } from '@weft/types/spec';
import { deref } from '@weft/types/spec';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

export function withNulls(doc: OpenApiDocument, schema: unknown, value: unknown): unknown {
  const s = deref<Schema>(doc, schema as Schema);
  if (Array.isArray(value)) return s.items ? value.map((v) => withNulls(doc, s.items, v)) : value;
  if (value === null || typeof value !== 'object') return value;
  const parts = [s, ...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])].map((p) => deref<Schema>(doc, p));
  const properties: Record<string, Schema> = Object.assign({}, ...parts.map((p) => p.properties ?? {}));
  const required = new Set(parts.flatMap((p) => p.required ?? []));
  const values = parts.map((p) => p.additionalProperties).find((a) => typeof a === 'object');
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>))
    out[name] = properties[name] ? withNulls(doc, properties[name], v) : values ? withNulls(doc, values, v) : v;
  for (const name of Object.keys(properties)) if (!(name in out) && !required.has(name)) out[name] = null;
  return out;
}
