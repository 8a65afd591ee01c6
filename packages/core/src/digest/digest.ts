/**
 * Weave's content digests. The hashed bytes and encodings must match the
 * Python trace server exactly, or refs minted here will not resolve there.
 */
import { createHash, hash } from 'node:crypto';
import { JsonText, parseLossless, type JsonNode } from './lossless-json.ts';
import { nativeJson } from '../native-json.ts';
import { withPyJsonBytes } from './py-json.ts';

/**
 * sha256 as unpadded base64url with `-`→`X` and `_`→`Y` (43 chars of
 * [A-Za-z0-9XY]); Weave avoids `-`/`_` so digests are safe inside refs.
 * Strings are hashed as UTF-8.
 */
export function digestBytes(bytes: Uint8Array | string): string {
  // The one-shot hash: no Hash object, and OpenSSL's digest looked up once rather than per call
  // (a table/create computes one per row).
  const b64 = hash('sha256', bytes, 'base64url');
  return b64.replace(URL_CHARS, urlCharReplacement);
}

/** Length of a digest: 32 bytes of sha256 in unpadded base64. */
export const DIGEST_CHARS = 43;

const URL_CHARS = /[-_]/g;
const urlCharReplacement = (c: string): string => (c === '-' ? 'X' : 'Y');

/** Digest of an object's `val`, from a lossless tree. */
export function objectDigest(node: JsonNode): string {
  // Hashes the canonical bytes in place; no intermediate string is built.
  return withPyJsonBytes(node, digestBytes);
}

/** Digest of one table row; the same canonical form as objects. */
export function rowDigest(node: JsonNode): string {
  return withPyJsonBytes(node, digestBytes);
}

/**
 * Table digest: lowercase hex sha256 over the concatenated row digests.
 * Weave uses hex here, not the 43-char form; an empty table hashes "".
 */
export function tableDigest(rowDigests: readonly string[]): string {
  return createHash('sha256').update(rowDigests.join('')).digest('hex');
}

/** Digest of an ordinary JS value; prefer objectDigest when raw text exists. */
export function digestOfValue(value: unknown): string {
  return withPyJsonBytes(value, digestBytes);
}

/** Weave's digest of a value, with the length of its canonical dump. */
export interface TextDigest {
  digest: string;
  /** Length of the canonical dump (Python's json.dumps with sorted keys). */
  sizeBytes: number;
}

/**
 * The digest of the value JSON.parse reads from `text` (ints and floats as JSON.parse sees them),
 * in place: the digest thread's work (digest-thread.ts), and its fallback.
 */
export function digestOfParsedText(text: string): TextDigest {
  const bytes = nativeJson?.pyJsonDumpOfText(text);
  if (bytes) return { digest: digestBytes(bytes), sizeBytes: bytes.length };
  return valueDigest(JSON.parse(text) as unknown);
}

/**
 * Weave's digest of a value with its canonical size: a lossless tree, a plain value, or a container
 * kept as its text (a large body's table row), whose number lexemes are read as parseLossless
 * reads them: natively from the text when the addon is built, else from its tree.
 */
export function valueDigest(value: unknown): TextDigest {
  if (value instanceof JsonText) {
    const digested = value.digested ?? digestOfLexemeText(value.text);
    if (digested !== undefined) return digested;
    value = value.tree();
  }
  return withPyJsonBytes(value, (bytes) => ({ digest: digestBytes(bytes), sizeBytes: bytes.length }));
}

/**
 * Weave's digest of a container's text as the lossless parse reads it (number lexemes kept), from
 * the text natively; undefined without the addon or where it leaves the text to the tree.
 */
export function digestOfLexemeText(text: string): TextDigest | undefined {
  // An ASCII string: hashed as it is, its length that of the bytes.
  const dump = nativeJson?.pyJsonDumpOfLexemes(text);
  return dump === undefined ? undefined : { digest: digestBytes(dump), sizeBytes: dump.length };
}

/** Convenience: objectDigest of raw JSON text, keeping int/float lexemes. */
export function digestJsonText(text: string): string {
  return withPyJsonBytes(parseLossless(text), digestBytes);
}
