/**
 * Python `json.dumps(v, sort_keys=True)` with every other option at its
 * default: separators ", " / ": ", ensure_ascii=True, allow_nan=True.
 * Weave hashes exactly these bytes, so the output must match byte for byte.
 */
import { AsciiWriter } from './ascii-writer.ts';
import { JsonNumber, JsonText, JSON_MAX_DEPTH, type JsonNode } from './lossless-json.ts';
import { pyFloatRepr } from './py-float.ts';
import { PLAIN, pyQuote } from './py-quote.ts';
import { sortedKeyPrefixes } from './sorted-keys.ts';

/** Dumps a lossless tree: int lexemes are copied exactly, floats via repr. */
export function pyJsonDumps(node: JsonNode): string {
  return dumpWith(node, false, toText);
}

/**
 * Dumps ordinary JS values, for when no raw JSON text exists. JS has no
 * int/float split, so a safe integer (|n| < 2^53) is taken as a Python int
 * and any other number as a float; bigint is an int. Non-JSON values follow
 * JSON.stringify (toJSON is honoured; undefined, functions and symbols are
 * dropped from objects and become null in arrays), except that NaN and
 * ±Infinity are written as Python writes them rather than as null.
 * JsonNumber values may be mixed in and keep their lexeme.
 */
export function pyJsonDumpsValue(value: unknown): string {
  return dumpWith(value, true, toText);
}

/**
 * Runs `use` on the UTF-8 (in fact ASCII) bytes of the dump without
 * materialising a string; digests hash these directly. The view is only
 * valid during the call.
 */
export function withPyJsonBytes<T>(value: unknown, use: (bytes: Uint8Array) => T): T {
  return dumpWith(value, true, (w) => use(w.bytes()));
}

const toText = (w: AsciiWriter): string => w.toString();

/** `plainValues` enables toJSON(); lossless trees skip that per-value lookup. */
function dumpWith<T>(value: unknown, plainValues: boolean, use: (w: AsciiWriter) => T): T {
  // One writer is reused across calls (100k row digests should not allocate
  // 100k buffers); a toJSON() that dumps re-entrantly gets its own.
  const outer = writer;
  const own = writerInUse ? new AsciiWriter() : outer;
  const wasInUse = writerInUse;
  const outerToJSON = honourToJSON;
  writer = own;
  writerInUse = true;
  honourToJSON = plainValues;
  try {
    const v = resolve(value, '');
    if (isOmitted(v)) throw new TypeError(`Cannot serialise a top-level ${typeof v} as JSON`);
    dump(v, 0);
    return use(own);
  } finally {
    own.reset(RETAINED_BYTES);
    writer = outer;
    writerInUse = wasInUse;
    honourToJSON = outerToJSON;
  }
}

const RETAINED_BYTES = 1 << 20;
let writer = new AsciiWriter(1 << 16);
let writerInUse = false;
let honourToJSON = true;

/** Applies toJSON like JSON.stringify; JsonNode trees never have one. `key` may be an array index, made a string only when needed. */
function resolve(value: unknown, key: string | number): unknown {
  if (honourToJSON && typeof value === 'object' && value !== null && !(value instanceof JsonNumber)) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as (k: string) => unknown).call(value, String(key));
  }
  return value;
}

function isOmitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** Writes an already-resolved, non-omitted value. */
function dump(value: unknown, depth: number): void {
  switch (typeof value) {
    case 'string':
      writeString(value);
      return;
    case 'number':
      writer.write(Number.isInteger(value) && Math.abs(value) < 2 ** 53 ? String(value) : pyFloatRepr(value));
      return;
    case 'boolean':
      writer.write(value ? 'true' : 'false');
      return;
    case 'bigint':
      writer.write(String(value));
      return;
    default: // object; omitted kinds were filtered by the caller
      if (value === null) writer.write('null');
      else if (value instanceof JsonNumber) writer.write(dumpNumber(value));
      else if (value instanceof JsonText) dump(value.tree(), depth);
      else if (depth >= JSON_MAX_DEPTH) throw new RangeError(`JSON nesting deeper than ${JSON_MAX_DEPTH} (or a cycle)`);
      else if (Array.isArray(value)) dumpArray(value, depth + 1);
      else dumpObject(value as Record<string, unknown>, depth + 1);
  }
}

/** Plain strings go straight into the buffer, skipping the quoted copy. */
function writeString(s: string): void {
  if (PLAIN.test(s)) {
    writer.writeByte(0x22);
    writer.write(s);
    writer.writeByte(0x22);
  } else {
    writer.write(pyQuote(s));
  }
}

function dumpNumber(n: JsonNumber): string {
  if (n.isFloat) return pyFloatRepr(Number(n.lexeme));
  // Python's int('-0') is 0; every other int lexeme is already canonical.
  return n.lexeme === '-0' ? '0' : n.lexeme;
}

function dumpArray(arr: readonly unknown[], depth: number): void {
  const n = arr.length;
  // Arrays of small integers (token bytes in logprobs) are common: one native join.
  if (n > 1 && n <= 4096 && arr.every(isSmallInt)) {
    writer.writeByte(0x5b);
    writer.write(arr.join(', '));
    writer.writeByte(0x5d);
    return;
  }
  writer.writeByte(0x5b); // [
  for (let i = 0; i < n; i++) {
    if (i > 0) writer.write(', ');
    const v = resolve(arr[i], i);
    if (isOmitted(v)) writer.write('null');
    else dump(v, depth);
  }
  writer.writeByte(0x5d); // ]
}

const isSmallInt = (v: unknown): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v > -(2 ** 31) && v < 2 ** 31 && !Object.is(v, -0);

function dumpObject(obj: Record<string, unknown>, depth: number): void {
  const { keys, prefixes } = sortedKeyPrefixes(Object.keys(obj));
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const v = resolve(obj[key], key);
    // Checked before writing so a dropped value leaves no dangling key.
    if (isOmitted(v)) continue;
    // prefixes[i] is `"key": `; the first written entry opens the object.
    if (first) writer.writeByte(0x7b);
    else writer.write(', ');
    first = false;
    writer.write(prefixes[i] as string);
    dump(v, depth);
  }
  if (first) writer.write('{}');
  else writer.writeByte(0x7d);
}
