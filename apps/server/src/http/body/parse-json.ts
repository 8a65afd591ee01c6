// JSON as every JSON operation reads it: UTF-8 with an optional byte-order mark, strict (an object
// or an array at the top, as body-parser's strict mode), an empty body read as `{}`; then the
// checks that keep values exact and every later step bounded (depth, numbers, storable text).
import { invalidRequest, parseLossless, validationDetail, type JsonNode, type ValidationDetail } from '@weft/core';
import { malformedJson, unprocessable } from './body-errors.ts';

/** The body's text: UTF-8, a leading byte-order mark dropped (RFC 8259 §8.1 lets a parser ignore it). */
export function bodyText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const FIRST = /[^ \t\n\r]/;

export function parseStrictJson(text: string): unknown {
  // As body-parser: an empty body is `{}` (its fields are then missing); blank text is malformed.
  if (text.length === 0) return {};
  const first = FIRST.exec(text)?.[0];
  if (first === undefined) throw malformedJson('Unexpected end of JSON input');
  if (first !== '{' && first !== '[') throw malformedJson(`Unexpected token '${first}': the body must be a JSON object or array`);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (err) {
    // SyntaxError, or RangeError for input nested deeper than the engine's stack.
    throw malformedJson(err instanceof Error ? err.message : 'malformed JSON');
  }
  refuseDeepNesting(text);
  refuseInexactNumbers(text);
  refuseUnstorableText(text);
  return value;
}

// U+0000 and lone surrogates can only arrive as `\u` escapes (raw control characters are not
// JSON, and UTF-8 cannot encode a lone surrogate): one regex test clears nearly every body.
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;
const ESCAPES = /\\\\|\\u(0000)|\\u([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|\\u([dD][c-fC-F][0-9a-fA-F]{2})/g;

/**
 * One rule for every write path and both databases: PostgreSQL cannot hold U+0000 or an unpaired
 * surrogate in text or jsonb, so neither is accepted anywhere (SQLite would have stored them,
 * and the two databases would disagree).
 */
export function refuseUnstorableText(text: string): void {
  if (!SUSPECT_ESCAPE.test(text)) return;
  for (const m of text.matchAll(ESCAPES)) {
    const [, nul, high, low, loneLow] = m;
    if (nul !== undefined || loneLow !== undefined || (high !== undefined && low === undefined)) {
      throw invalidRequest('Values containing the character U+0000 or unpaired UTF-16 surrogates cannot be stored');
    }
  }
}

/**
 * Deepest nesting of arrays and objects accepted (Python's json, and so Weave, stops near 1000).
 * Deeper input would overflow the stack of every recursive step after parsing.
 */
export const MAX_DEPTH = 1000;

function refuseDeepNesting(text: string): void {
  // Only a body with more brackets than MAX_DEPTH can be that deep: count first, scan if so.
  let brackets = 0;
  for (let i = text.indexOf('['); i !== -1 && brackets <= MAX_DEPTH; i = text.indexOf('[', i + 1)) brackets++;
  for (let i = text.indexOf('{'); i !== -1 && brackets <= MAX_DEPTH; i = text.indexOf('{', i + 1)) brackets++;
  if (brackets <= MAX_DEPTH) return;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) {
        throw unprocessable([validationDetail(['body'], `Nesting deeper than ${MAX_DEPTH} levels is refused`, 'too_deep')]);
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/**
 * A number longer than this is refused: a double holds 17 significant digits, so such a lexeme
 * could not be stored as sent, and the sliced parser (parse-json-chunks.ts) need not hold one whole.
 */
export const MAX_NUMBER_CHARS = 1024;

// Only a body with an integer part of 16+ digits, a 3-digit exponent or a fraction too long for
// the limit can hold such a number (logprobs' 17-digit fractions are not suspects): the common
// case costs one regex test.
// (A longer lexeme with an integer part under 16 digits and an exponent under 3 has a fraction of
// over 1,000 digits.)
const SUSPECT = new RegExp(`(?<![.\\d])\\d{16}|[eE][+-]?\\d{3}|\\.\\d{${MAX_NUMBER_CHARS - 24}}`);
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Values are stored exactly as sent or refused, never changed: an integer beyond ±2^53 (it would
 * come back rounded) or a number beyond the double range (it would become null) is a 422.
 */
export function refuseInexactNumbers(text: string): void {
  if (!SUSPECT.test(text)) return;
  const problems: ValidationDetail[] = [];
  for (const [token] of text.matchAll(TOKENS)) {
    if (token.startsWith('"')) continue;
    const value = Number(token);
    if (token.length > MAX_NUMBER_CHARS) {
      problems.push(
        validationDetail(
          ['body'],
          `A number longer than ${MAX_NUMBER_CHARS} characters is refused (${token.slice(0, 40)}…)`,
          'number_too_long',
        ),
      );
    } else if (!Number.isFinite(value)) {
      problems.push(
        validationDetail(
          ['body'],
          `The number ${token.slice(0, 40)} is beyond the range of a double; it cannot be stored as sent`,
          'number_out_of_range',
        ),
      );
    } else if (/^-?\d+$/.test(token) && !Number.isSafeInteger(value)) {
      problems.push(
        validationDetail(
          ['body'],
          `The integer ${token.slice(0, 40)} is beyond ±2^53 and would not read back exactly; send it as a string`,
          'number_out_of_range',
        ),
      );
    }
    if (problems.length >= 10) break;
  }
  if (problems.length > 0) throw unprocessable(problems);
}

/** The body's tree with every number lexeme kept (`1.0` ≠ `1`), for Weave's digests. */
export function parseLosslessJson(text: string): JsonNode {
  try {
    return parseLossless(text);
  } catch (err) {
    throw malformedJson(err instanceof Error ? err.message : 'malformed JSON');
  }
}
