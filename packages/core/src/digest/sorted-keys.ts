/**
 * Key order and key text for Python's sort_keys=True, cached per key set.
 *
 * Table rows overwhelmingly share one key set, so sorting and quoting the
 * same keys 100k times is wasted work; a small cache keyed by the first key
 * (verified against the full list, so it is never wrong) removes it. A few
 * key sets may share a first key (a logprob entry and its alternatives:
 * `token, logprob, bytes` with and without `top_logprobs`), so each first key
 * keeps up to MAX_PER_FIRST_KEY of them.
 */
import { pyQuote } from './py-quote.ts';

export interface SortedKeys {
  /** Keys in Python order. */
  readonly keys: readonly string[];
  /** `"key": ` for each entry of `keys`, escaped as Python would. */
  readonly prefixes: readonly string[];
}

interface CachedShape extends SortedKeys {
  readonly raw: readonly string[];
}

const EMPTY: SortedKeys = { keys: [], prefixes: [] };
const MAX_SHAPES = 1024;
const MAX_PER_FIRST_KEY = 4;
// Bounds what the cache can retain: pathological key sets are not cached.
const MAX_CACHED_KEYS = 64;
const MAX_CACHED_KEY_CHARS = 4096;
const shapes = new Map<string, CachedShape[]>();

/** `raw` is an object's own keys in insertion order; it is not modified. */
export function sortedKeyPrefixes(raw: readonly string[]): SortedKeys {
  const first = raw[0];
  if (first === undefined) return EMPTY;
  const known = shapes.get(first);
  if (known !== undefined) for (const hit of known) if (sameKeys(hit.raw, raw)) return hit;

  const keys = raw.slice();
  sortByCodePoint(keys);
  let chars = 0;
  const prefixes = keys.map((k) => {
    chars += k.length;
    return pyQuote(k) + ': ';
  });
  const shape: CachedShape = { raw, keys, prefixes };
  if (raw.length <= MAX_CACHED_KEYS && chars <= MAX_CACHED_KEY_CHARS) {
    if (known !== undefined && known.length < MAX_PER_FIRST_KEY) known.push(shape);
    else {
      if (shapes.size >= MAX_SHAPES) shapes.clear();
      shapes.set(first, [shape]);
    }
  }
  return shape;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * Python sorts str keys by code point; Array#sort compares UTF-16 units.
 * The two only disagree when a surrogate meets a unit in U+E000–U+FFFF, so
 * the slower comparator runs only when some key has a surrogate.
 */
export function sortByCodePoint(keys: string[]): void {
  if (keys.length < 2) return;
  keys.sort();
  for (const k of keys) {
    if (SURROGATE.test(k)) {
      keys.sort(compareCodePoints);
      return;
    }
  }
}

export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x - y;
    // Rare: compare whole code point sequences (lone surrogates count as
    // themselves, as in Python) rather than reason about pair boundaries.
    const ca = Array.from(a, (ch) => ch.codePointAt(0) as number);
    const cb = Array.from(b, (ch) => ch.codePointAt(0) as number);
    const m = Math.min(ca.length, cb.length);
    for (let j = 0; j < m; j++) {
      const d = (ca[j] as number) - (cb[j] as number);
      if (d !== 0) return d;
    }
    return ca.length - cb.length;
  }
  return a.length - b.length;
}
