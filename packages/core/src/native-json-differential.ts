// A differential fuzz of the addon's functions against their JavaScript references: random
// values, the same texts spelt adversarially (blanks, escapes, number lexemes, repeated keys, deep
// nesting), and malformed texts. A function may leave a text to its reference (undefined);
// whatever it gives must be the reference's, and it must give nothing for a text the reference
// refuses. The references: pyJsonDumpOfText's is Python's json.dumps(sort_keys=True) of
// JSON.parse's value (digest/py-json.ts), pyJsonDumpOfLexemes's the same of parseLossless's tree;
// @weft/store's tests give storedJsonOfText's. Used by native-json-fuzz.test.ts (the built addon),
// native-json-build.test.ts (a build without floating-point charconv, as on Apple's libc++) and
// @weft/store's stored-json-native.test.ts.
import { parseLossless } from './digest/lossless-json.ts';
import { pyJsonDumps, withPyJsonBytes } from './digest/py-json.ts';
import { randomJsonValue, TRICKY_STRINGS } from './random-json.ts';
import { seededRandom } from './seeded-random.ts';

/** What a reference answers for a text it refuses. */
export const REFUSED = Symbol('refused');

/** A function's JavaScript reference: its answer for a text, or REFUSED. */
export type Reference = (text: string) => string | typeof REFUSED;

/** pyJsonDumpOfText's: the dump of JSON.parse's value. */
export const parsedDump: Reference = (text) => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return REFUSED;
  }
  return withPyJsonBytes(value, (b) => Buffer.from(b).toString('latin1'));
};

/** pyJsonDumpOfLexemes's: the dump of Weave's lossless tree (number lexemes kept). */
export const losslessDump: Reference = (text) => {
  try {
    return pyJsonDumps(parseLossless(text));
  } catch {
    return REFUSED;
  }
};

const LEXEMES = [
  '0',
  '-0',
  '-0.0',
  '1.0',
  '1e2',
  '1E+2',
  '1e-7',
  '0.1',
  '9007199254740993',
  '12345678901234567890',
  '5e-324',
  '1e400',
  '-1e-400',
  '100.0',
  '4.35',
  // Python's own literals: refused by JSON.parse, read by the lossless parse.
  'NaN',
  '-Infinity',
];
const BLANKS = ['', ' ', '\n', '\t', '\r', '  \n '];

/** The same JSON text spelt another way: blanks between tokens, \u escapes, other number lexemes. */
function respell(text: string, random: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') {
        out += c + text[++i];
        continue;
      }
      if (c === '"') inString = false;
      // An escape of a plain character names the same character.
      out += c !== '"' && random() < 0.05 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c;
      continue;
    }
    if (c === '"') inString = true;
    if ('{}[],:'.includes(c)) out += pick(BLANKS) + c + pick(BLANKS);
    else if (/[-0-9]/.test(c) && !/[-0-9.eE+]/.test(text[i - 1] ?? '')) {
      let j = i;
      while (j < text.length && /[-0-9.eE+]/.test(text[j]!)) j++;
      out += random() < 0.3 ? pick(LEXEMES) : text.slice(i, j);
      i = j - 1;
    } else out += c;
  }
  return out;
}

/** A text with one fault: a character dropped, inserted or replaced, or the end cut off. */
function damage(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  const ch = '{}[],:"\\ 0-.eatrufnl\u0001'[Math.floor(random() * 21)]!;
  switch (Math.floor(random() * 4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + ch + text.slice(at);
    case 2:
      return text.slice(0, at) + ch + text.slice(at + 1);
    default:
      return text.slice(0, at);
  }
}

function fuzzText(random: () => number): string {
  const kind = random();
  if (kind < 0.02) {
    // Deep nesting around the addon's and Python's limits, with a repeated key inside.
    const depth = 800 + Math.floor(random() * 400);
    return '['.repeat(depth) + '{"k":1,"k":2}' + ']'.repeat(depth);
  }
  if (kind < 0.05) {
    const s = TRICKY_STRINGS[Math.floor(random() * TRICKY_STRINGS.length)]!;
    return `{"a":${JSON.stringify(s)},"a":[${JSON.stringify(s)}],${JSON.stringify(s)}:0}`;
  }
  const text = JSON.stringify(randomJsonValue(random)) ?? 'null';
  if (kind < 0.45) return text;
  if (kind < 0.75) return respell(text, random);
  return damage(random() < 0.5 ? text : respell(text, random), random);
}

/**
 * Runs `texts` fuzzed texts from `seed` through `fn` and its reference; throws naming the seed and
 * the text at the first disagreement. Returns how many texts `fn` answered and how many the
 * reference refused.
 */
export function fuzzAgainstReference(
  fn: (text: string) => Buffer | string | undefined,
  seed: number,
  texts: number,
  reference: Reference = parsedDump,
): { answered: number; refused: number } {
  const random = seededRandom(seed);
  let answered = 0;
  let refused = 0;
  for (let i = 0; i < texts; i++) {
    const text = fuzzText(random);
    const expected = reference(text);
    let got: string | undefined;
    try {
      const answer = fn(text);
      got = typeof answer === 'string' || answer === undefined ? answer : answer.toString('latin1');
    } catch (err) {
      // Throwing is allowed only where the reference refuses too.
      if (expected !== REFUSED) throw new Error(`seed ${seed}, text ${i}: the addon threw on ${JSON.stringify(text)}`, { cause: err });
      continue;
    }
    if (expected === REFUSED) refused++;
    if (got === undefined) continue;
    answered++;
    if (expected === REFUSED)
      throw new Error(`seed ${seed}, text ${i}: the addon answered a text its reference refuses: ${JSON.stringify(text)}`);
    if (got !== expected)
      throw new Error(`seed ${seed}, text ${i}: ${JSON.stringify(text)}\n  addon:     ${got}\n  reference: ${expected}`);
  }
  return { answered, refused };
}
