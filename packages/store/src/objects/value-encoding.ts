// Turns a value received for an object or a table row into what the store keeps: Weave's digest,
// the canonical size, and the JSON text to store. Shared by objects and tables.
//
// The digest must be computed from the lossless parse of the request when there is one (`1.0` and
// `1` hash differently in Weave); the plain value is only the fallback for direct store users.
//
// The stored text is minified JSON with two deliberate normalisations, so that both databases hold
// the same thing and every read, sort and text comparison agrees between them:
// - object keys in PostgreSQL jsonb's order (shorter UTF-8 first, then byte-wise), which jsonb
//   would impose anyway on an object (table rows are json, which keeps the text: migration 0012);
// - NaN and ±Infinity (Python's json accepts and writes them) become null: neither jsonb nor
//   JSON.parse can hold them. The digest still covers the value as sent.
// Number lexemes are otherwise kept as sent (an object's jsonb still respells some, 1e2 → 100;
// a table row's json does not).
import { compareCodePoints, digestBytes, invalidRequest, JsonNumber, withPyJsonBytes, type JsonNode } from '@weft/core';

export interface EncodedValue {
  /** Weave's content digest (43 characters). */
  digest: string;
  /** Length of Python's `json.dumps(val, sort_keys=True)`, which is pure ASCII. */
  sizeBytes: number;
  /** Minified JSON to store (see the header). */
  text: string;
}

/**
 * `node` is the value's subtree of the lossless request parse, when the HTTP layer had one; else
 * `plain` is encoded, as JSON.parse would have produced it.
 */
export function encodeValue(plain: unknown, node: JsonNode | undefined): EncodedValue {
  const value: unknown = node === undefined ? plain : node;
  if (value === undefined) throw invalidRequest('A value is required');
  const { digest, sizeBytes } = withPyJsonBytes(value, (bytes) => ({ digest: digestBytes(bytes), sizeBytes: bytes.length }));
  const text = toStoredJson(value);
  assertStorable(text);
  return { digest, sizeBytes, text };
}

/**
 * JSON.stringify's text of a value JSON.parse produced (no lexemes to keep, no NaN, no toJSON),
 * refused as encodeValue refuses it: a trajectory log's row, before the digest thread puts its
 * keys in jsonb order (or, without the native addon, toStoredJson does).
 */
export function storableJsonOfParsed(value: unknown): string {
  const text = JSON.stringify(value);
  assertStorable(text);
  return text;
}

/** The child of a lossless object at `key`, if the tree is an object that has it. */
export function childNode(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (node === null || node === undefined || typeof node !== 'object' || Array.isArray(node) || node instanceof JsonNumber) {
    return undefined;
  }
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

/** Minified JSON of a lossless tree or a plain value, keys in jsonb order (see the header). */
export function toStoredJson(value: unknown): string {
  // Plain JSON values (most of them: every trajectory of a log) go through the native
  // JSON.stringify once their objects are in jsonb order: 3× faster than the writer below
  // (BENCHMARKS.md, scenario 4), which stays for lossless trees and the values stringify would
  // not write as stored (JsonNumber, NaN, toJSON, integer-like keys).
  const ordered = inJsonbOrder(value, 0);
  const out = ordered === UNPLAIN ? write(value) : JSON.stringify(ordered);
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
  for (const key of jsonbKeyOrder(Object.keys(obj))) {
    const v = write(obj[key]);
    if (v === undefined) continue;
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + v;
    first = false;
  }
  return out + '}';
}

const UNPLAIN = Symbol('unplain');
// A key JS would enumerate first (array indices), whatever order an object is built in.
const INDEX_KEY = /^(?:0|[1-9][0-9]{0,9})$/;
const MAX_PLAIN_DEPTH = 1000;

/**
 * `value` with every object's keys in jsonb order (objects already in order are kept, others
 * copied), or UNPLAIN when JSON.stringify would not write it as the stored form.
 */
function inJsonbOrder(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : UNPLAIN;
    case 'object':
      break;
    default:
      return UNPLAIN;
  }
  if (value === null) return value;
  if (depth > MAX_PLAIN_DEPTH || value instanceof JsonNumber || typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return UNPLAIN;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const o = inJsonbOrder(v, depth + 1);
      if (o === UNPLAIN) return UNPLAIN;
      if (o !== v) (copy ??= value.slice())[i] = o;
    }
    return copy ?? value;
  }
  const obj = value as Record<string, unknown>;
  const order = jsonbOrderOf(Object.keys(obj));
  if (order === undefined) return UNPLAIN;
  let copy: Record<string, unknown> | undefined;
  if (order.reordered) copy = {};
  for (const key of order.keys) {
    const v = obj[key];
    const o = inJsonbOrder(v, depth + 1);
    if (o === UNPLAIN) return UNPLAIN;
    if (copy) copy[key] = o;
    else if (o !== v) {
      copy = {};
      for (const k of order.keys) copy[k] = obj[k];
      copy[key] = o;
    }
  }
  return copy ?? obj;
}

interface KeyOrder {
  keys: readonly string[];
  /** False when the object's own order is jsonb's already. */
  reordered: boolean;
}

// Objects of one shape (a logprob entry, a message) come by the thousand: their key order is
// worked out once. Bounded, and emptied when full.
const ORDERS = new Map<string, KeyOrder | null>();
const MAX_ORDERS = 4096;

/** The jsonb order of an object's keys; undefined when one is an array index (see INDEX_KEY). */
function jsonbOrderOf(keys: string[]): KeyOrder | undefined {
  if (keys.length < 2) return keys.length === 1 && INDEX_KEY.test(keys[0] as string) ? undefined : { keys, reordered: false };
  const shape = keys.join('\u0000');
  let known = ORDERS.get(shape);
  if (known === undefined) {
    if (keys.some((k) => INDEX_KEY.test(k))) known = null;
    else {
      const sorted = jsonbKeyOrder(keys);
      known = { keys: sorted, reordered: sorted.some((k, i) => k !== keys[i]) };
    }
    if (ORDERS.size >= MAX_ORDERS) ORDERS.clear();
    ORDERS.set(shape, known);
  }
  if (known === null) return undefined;
  return known.reordered ? known : { keys, reordered: false };
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;
const utf8Length = (s: string): number => (ASCII.test(s) ? s.length : Buffer.byteLength(s, 'utf8'));

/** jsonb's key order: UTF-8 length, then bytes (code point order is UTF-8 byte order). */
function jsonbKeyOrder(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  return keys
    .map((k) => ({ k, n: utf8Length(k) }))
    .sort((a, b) => a.n - b.n || compareCodePoints(a.k, b.k))
    .map((e) => e.k);
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
