// How PostgreSQL's jsonb spells a JSON number (its numeric type's output), so that a transfer's
// checks compare what two databases hold by value rather than by spelling: SQLite keeps the
// lexeme as sent (`1e-05`, `1e2`, `-0.0`), PostgreSQL prints `0.00001`, `100`, `0.0`. Only an
// exponent and the sign of zero change; `1.0` stays `1.0` (numeric keeps its scale).
import { JsonNumber, JsonText, newJsonObject, parseLossless, withPyJsonBytes, digestBytes, type JsonNode } from '@weft/core';

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Beyond this the plain spelling is longer than it is worth; such lexemes are left as they are. */
const MAX_EXPONENT = 1000;

export function postgresNumberText(lexeme: string): string {
  const m = NUMBER.exec(lexeme);
  if (!m) return lexeme; // NaN, Infinity: never stored as numbers
  const [, sign = '', int = '', frac = '', expText] = m;
  const digits = int + frac;
  const negativeZero = sign === '-' && /^0*$/.test(digits);
  if (expText === undefined && !negativeZero) return lexeme;
  const exp = expText === undefined ? 0 : Number(expText);
  if (Math.abs(exp) > MAX_EXPONENT) return lexeme;
  // value = digits × 10^-(frac.length - exp); numeric's scale is max(0, frac.length - exp).
  const scale = Math.max(0, frac.length - exp);
  let all = frac.length - exp < 0 ? digits + '0'.repeat(exp - frac.length) : digits;
  if (all.length <= scale) all = '0'.repeat(scale - all.length + 1) + all;
  const intPart = all.slice(0, all.length - scale).replace(/^0+(?=\d)/, '');
  const fracPart = all.slice(all.length - scale);
  const zero = /^0*$/.test(intPart + fracPart);
  return `${sign === '-' && !zero ? '-' : ''}${intPart}${scale > 0 ? `.${fracPart}` : ''}`;
}

function normalise(node: JsonNode): JsonNode {
  if (node instanceof JsonNumber) {
    const text = postgresNumberText(node.lexeme);
    return text === node.lexeme ? node : new JsonNumber(text);
  }
  if (node instanceof JsonText) return normalise(node.tree());
  if (Array.isArray(node)) return node.map(normalise);
  if (node !== null && typeof node === 'object') {
    const out = newJsonObject();
    for (const [k, v] of Object.entries(node)) out[k] = normalise(v);
    return out;
  }
  return node;
}

/** Weave's digest of JSON text with its numbers spelt as PostgreSQL spells them. */
export function postgresSpeltDigest(text: string): string {
  return withPyJsonBytes(normalise(parseLossless(text)), digestBytes);
}
