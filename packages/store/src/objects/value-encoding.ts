// Turns a value received for an object or a table row into what the store keeps: Weave's digest,
// the canonical size, and the JSON text to store. Shared by objects and tables.
//
// The digest must be computed from the lossless parse of the request when there is one (`1.0` and
// `1` hash differently in Weave); the plain value is only the fallback for direct store users.
//
// The stored text is minified JSON with the keys in the order they were sent and numbers spelt as
// sent: both databases keep that text (PostgreSQL's json, not jsonb, for objects and table rows),
// so a read answers what was written, as Weave's ClickHouse does. Two things cannot be kept:
// - keys that are array indices ("0", "7") come first, in numeric order, as in every JavaScript
//   object the value passes through (the lossless parse included);
// - NaN and ±Infinity (Python's json accepts and writes them) become null: neither database's JSON
//   nor JSON.parse can hold them. The digest still covers the value as sent.
import { invalidRequest, JsonNumber, JsonText, nativeJson, valueDigest, type JsonNode } from '@weft/core';

export interface EncodedValue {
  /** Weave's content digest (43 characters). */
  digest: string;
  /** Length of Python's `json.dumps(val, sort_keys=True)`, which is pure ASCII. */
  sizeBytes: number;
  /** Minified JSON to store, keys in the order sent (see the header). */
  text: string;
}

/**
 * `node` is the value's subtree of the lossless request parse, when the HTTP layer had one; else
 * `plain` is encoded, as JSON.parse would have produced it.
 */
export function encodeValue(plain: unknown, node: JsonNode | undefined): EncodedValue {
  const value: unknown = node === undefined ? plain : node;
  if (value === undefined) throw invalidRequest('A value is required');
  const { digest, sizeBytes } = valueDigest(value);
  const text = toStoredJson(value);
  assertStorable(text);
  return { digest, sizeBytes, text };
}

/**
 * JSON.stringify's text of a value JSON.parse produced (no lexemes to keep, no NaN, no toJSON),
 * refused as encodeValue refuses it: a trajectory log's row, stored as it is.
 */
export function storableJsonOfParsed(value: unknown): string {
  const text = JSON.stringify(value);
  assertStorable(text);
  return text;
}

/** The child of a lossless object at `key`, if the tree is an object that has it. */
export function childNode(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (node instanceof JsonText) return childNode(node.tree(), key);
  if (node === null || node === undefined || typeof node !== 'object' || Array.isArray(node) || node instanceof JsonNumber) {
    return undefined;
  }
  return Object.hasOwn(node, key) ? (node as Record<string, JsonNode>)[key] : undefined;
}

/** The items of a lossless list, if the node is one (a list still as its text is parsed first). */
export function listItems(node: JsonNode | undefined): readonly JsonNode[] | undefined {
  const list = node instanceof JsonText ? node.tree() : node;
  return Array.isArray(list) ? list : undefined;
}

/** Minified JSON of a lossless tree or a plain value, keys in the order sent (see the header). */
export function toStoredJson(value: unknown): string {
  if (value instanceof JsonText) return storedJsonOfText(value);
  // Plain JSON values (most of them) go through the native JSON.stringify, which writes them as
  // stored; the writer below stays for lossless trees and what stringify would not write as
  // stored (JsonNumber, NaN, toJSON).
  const out = isPlain(value, 0) ? JSON.stringify(value) : write(value);
  if (out === undefined) throw invalidRequest('A value is required');
  return out;
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default: // undefined, functions, symbols: dropped from objects, null in arrays (JSON.stringify)
      return undefined;
  }
  if (value === null) return 'null';
  if (value instanceof JsonNumber) return /[IN]/.test(value.lexeme) ? 'null' : value.lexeme;
  if (value instanceof JsonText) return storedJsonOfText(value);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return write((toJSON as () => unknown).call(value));
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i]) ?? 'null';
    }
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const key of Object.keys(obj)) {
    const v = write(obj[key]);
    if (v === undefined) continue;
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + v;
    first = false;
  }
  return out + '}';
}

/** A container still as its text: minified natively when it can be (json-native's stored-json.cc). */
function storedJsonOfText(value: JsonText): string {
  return value.stored ?? nativeJson?.storedJsonOfText(value.text) ?? (write(value.tree()) as string);
}

const MAX_PLAIN_DEPTH = 1000;

/** Whether JSON.stringify writes `value` as the stored form: finite numbers, no JsonNumber, no toJSON. */
function isPlain(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (
    depth > MAX_PLAIN_DEPTH ||
    value instanceof JsonNumber ||
    value instanceof JsonText ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    return false;
  if (Array.isArray(value)) {
    for (const v of value as unknown[]) if (!isPlain(v, depth + 1)) return false;
    return true;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key) && !isPlain((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

// JSON.stringify writes `\u` only for control characters and unpaired surrogates; a real escape
// is preceded by an even number of backslashes.
const UNSTORABLE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f])/i;

/**
 * PostgreSQL's jsonb cannot hold U+0000 or unpaired surrogates (SQLite could). Both databases
 * refuse them, so that a value accepted by one is accepted by the other.
 */
function assertStorable(text: string): void {
  if (text.includes('\\u') && UNSTORABLE.test(text)) {
    throw invalidRequest('Values containing the character U+0000 or unpaired UTF-16 surrogates cannot be stored');
  }
}
