// The native functions against their JavaScript references, on the cases where they could differ.
// `pnpm install` builds the addon: a test run without it fails here rather than silently running
// every digest 3× slower, unless WEFT_JSON_NATIVE=0 turned it off on purpose (the main pass of
// `pnpm test`), when there is nothing native to compare: scripts/test-native-path.mjs runs this
// file again with the addon on.
import { describe, expect, it } from 'vitest';
import { nativeJson, nativeJsonDisabled } from './native-json.ts';
import { digestBytes, digestOfParsedText, rowDigest, valueDigest } from './digest/digest.ts';
import { JsonText, parseLossless } from './digest/lossless-json.ts';
import { pyJsonDumps } from './digest/py-json.ts';
import { withPyJsonBytes } from './digest/py-json.ts';
import { randomJsonValue, TRICKY_STRINGS as STRINGS } from './random-json.ts';
import { seededRandom } from './seeded-random.ts';

const native = nativeJson!;
const reference = (text: string) => withPyJsonBytes(JSON.parse(text) as unknown, (b) => Buffer.from(b).toString('latin1'));
const dump = (text: string) => native.pyJsonDumpOfText(text)?.toString('latin1');

const NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '0.0',
  '-0.0',
  '1.0',
  '1.5',
  '1E2',
  '1e2',
  '1e+2',
  '1.5e-7',
  '1e-5',
  '0.0001',
  '0.00001',
  '0.1',
  '0.3',
  '2.5e-3',
  '123456789012345',
  '1234567890123456',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '12345678901234567890',
  '1e15',
  '1e16',
  '1e17',
  '1e21',
  '1e22',
  '123.456e10',
  '1.7976931348623157e308',
  '5e-324',
  '2.2250738585072014e-308',
  '-0.6920687857214479',
  '100.0',
  '1e-7',
  '0.000123',
  '999999999999999.9',
  '9999999999999998',
  '1.0000000000000002',
  '4.35',
  '0.1e1',
  '-1.5E+300',
];

describe.skipIf(nativeJsonDisabled)('nativeJson', () => {
  it('is built by pnpm install', () => {
    expect(nativeJson).toBeDefined();
  });

  it("pyJsonDumpOfText writes Python's bytes for every kind of number JSON.parse reads", () => {
    for (const n of NUMBERS) {
      for (const text of [n, `[${n}]`, `{"n":${n}}`]) expect(dump(text), text).toBe(reference(text));
    }
  });

  it('pyJsonDumpOfText escapes strings and sorts keys as Python does, with or without escapes', () => {
    for (const s of STRINGS) {
      const text = JSON.stringify({ [s]: s, z: [s], a: { [s + 'k']: 1, [s]: 2, '\ue000': 3 } });
      expect(dump(text), text).toBe(reference(text));
    }
    // A lone surrogate as a value is escaped like any other unit; as a key it is left to the reference.
    expect(dump('["\\ud800", "\\udc00x"]')).toBe(reference('["\\ud800", "\\udc00x"]'));
    expect(dump('{"\\ud800": 1}')).toBeUndefined();
    // Escaped as the client sent them, not as JSON.stringify would: the same value.
    const escaped = '{"\\u0062":"\\u00e9\\/\\ud83d\\ude00","a":"\\"","\\u0041":[true,false,null]}';
    expect(dump(escaped)).toBe(reference(escaped));
    // Key order Python's way: by code point, not by length; integer-like keys too.
    const keys = JSON.stringify({ b: 1, aa: 2, '10': 3, '9': 4, '': 5, é: 6, __proto__: 7, B: 8 });
    expect(dump(keys)).toBe(reference(keys));
  });

  it('pyJsonDumpOfText agrees with the reference on random values', () => {
    const random = seededRandom(20261126);
    for (let i = 0; i < 2000; i++) {
      const text = JSON.stringify(randomJsonValue(random));
      expect(dump(text), text).toBe(reference(text));
    }
  });

  it('pyJsonDumpOfText reads whitespace and nesting as JSON.parse does', () => {
    const text = ' { "b" : [ 1 , { "d" : [ ] , "c" : { } } ] ,\n\t"a" : "x" } ';
    expect(dump(text)).toBe(reference(text));
    const deep = '['.repeat(900) + ']'.repeat(900);
    expect(dump(deep)).toBe(reference(deep));
  });

  it('leaves to the reference what only it handles, and the digest is the same either way', () => {
    for (const text of [
      '{"a":1,"a":2}', // JSON.parse keeps the last
      '{"\\ud800":1,"b":2}', // a lone surrogate in a key: its own code point to Python
      '[1e400]', // beyond a double: Infinity
      '[1e-400]', // below one: 0
      '['.repeat(1100) + ']'.repeat(1100),
    ]) {
      expect(native.pyJsonDumpOfText(text), text).toBeUndefined();
      expect(digestOfParsedText(text).digest).toBe(withPyJsonBytes(JSON.parse(text) as unknown, digestBytes));
    }
    for (const text of ['', '{', '[1,]', '{"a":}', '01', 'nul', '"\u0001"', '[1] 2']) {
      expect(native.pyJsonDumpOfText(text), text).toBeUndefined();
      expect((): unknown => JSON.parse(text)).toThrow();
    }
  });

  it("pyJsonDumpOfLexemes writes Python's bytes for every number lexeme, as Weave's lossless parse reads it", () => {
    const lossless = (text: string) => pyJsonDumps(parseLossless(text));
    for (const n of NUMBERS) {
      for (const text of [n, `[${n}]`, `{"n":${n}}`]) expect(native.pyJsonDumpOfLexemes(text), text).toBe(lossless(text));
    }
    // Where it differs from JSON.parse's reading: a float stays a float, an int keeps every digit.
    expect(native.pyJsonDumpOfLexemes('[1.0, 1, -0, -0.0, 1E2, 12345678901234567890, 100.0]')).toBe(
      '[1.0, 1, 0, -0.0, 100.0, 12345678901234567890, 100.0]',
    );
    expect(native.pyJsonDumpOfText('[1.0, 12345678901234567890]')?.toString('latin1')).toBe('[1, 1.2345678901234567e+19]');
  });

  it('pyJsonDumpOfLexemes leaves to the reference what only it handles, and the digest is the same either way', () => {
    for (const text of ['{"a":1,"a":2}', '{"\\ud800":1}', '[1e400]', '[1e-400]', '[NaN, -Infinity]', '['.repeat(1100) + ']'.repeat(1100)]) {
      expect(native.pyJsonDumpOfLexemes(text), text).toBeUndefined();
    }
    for (const text of ['{"a":1,"a":2}', '{"b":[1.0,{"d":1E2,"c":"\\u00e9"}],"a":-0}', '[1e400]', '[NaN]']) {
      expect(valueDigest(new JsonText(text)).digest, text).toBe(rowDigest(parseLossless(text)));
      expect(valueDigest(new JsonText(text)).sizeBytes, text).toBe(pyJsonDumps(parseLossless(text)).length);
    }
  });
});
