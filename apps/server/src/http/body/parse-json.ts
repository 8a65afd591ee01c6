// JSON as every JSON operation reads it: UTF-8 with an optional byte-order mark, strict (an object
// or an array at the top, as body-parser's strict mode), an empty body read as `{}`.
import { parseLossless, type JsonNode } from '@weft/core';
import { malformedJson } from './body-errors.ts';

/** The body's text: UTF-8, a leading byte-order mark dropped (RFC 8259 §8.1 lets a parser ignore it). */
export function bodyText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const FIRST = /[^ \t\n\r]/;

export function parseStrictJson(text: string): unknown {
  const first = FIRST.exec(text)?.[0];
  if (first === undefined) return {};
  if (first !== '{' && first !== '[') throw malformedJson(`Unexpected token '${first}': the body must be a JSON object or array`);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    // SyntaxError, or RangeError for input nested deeper than the engine's stack.
    throw malformedJson(err instanceof Error ? err.message : 'malformed JSON');
  }
}

/** The body's tree with every number lexeme kept (`1.0` ≠ `1`), for Weave's digests. */
export function parseLosslessJson(text: string): JsonNode {
  try {
    return parseLossless(text);
  } catch (err) {
    throw malformedJson(err instanceof Error ? err.message : 'malformed JSON');
  }
}
