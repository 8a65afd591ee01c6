import { JsonNumber, JsonText, type JsonNode } from './lossless-json.ts';

/**
 * Converts a lossless tree into ordinary JS values, as JSON.parse would have
 * produced (numbers via Number(), so big ints lose precision). A `__proto__`
 * key becomes an own property rather than changing the prototype.
 */
export function toPlain(node: JsonNode): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (node instanceof JsonNumber) return node.toNumber();
  if (node instanceof JsonText) return toPlain(node.tree());
  if (Array.isArray(node)) return node.map(toPlain);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node)) {
    const value = toPlain(node[key] as JsonNode);
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = value;
    }
  }
  return out;
}
