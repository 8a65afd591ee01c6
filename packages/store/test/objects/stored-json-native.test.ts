// The addon's storedJsonOfText against its JavaScript reference, toStoredJson of the lossless
// tree (objects/value-encoding.ts): the text a large body's rows and values are stored as.
// WEFT_FUZZ_SEED=<n> replays a run; WEFT_FUZZ_TEXTS sets how many texts (default 100,000).
import { JsonText, nativeJson, nativeJsonDisabled, parseLossless } from '@weft/core';
import { fuzzAgainstReference, REFUSED, type Reference } from '@weft/core/native-json-differential';
import { describe, expect, it } from 'vitest';
import { encodeValue, toStoredJson } from '../../src/objects/value-encoding.ts';

const SEED = Number(process.env.WEFT_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TEXTS = Number(process.env.WEFT_FUZZ_TEXTS ?? 100_000);

const storedOfTree: Reference = (text) => {
  try {
    // An answer is also taken as proof that JSON.parse accepts the text (apps/server's
    // parse-json-chunks.ts checks a large body's table rows so): it must refuse what JSON.parse does.
    JSON.parse(text);
    return toStoredJson(parseLossless(text));
  } catch {
    return REFUSED;
  }
};

describe.skipIf(nativeJsonDisabled)('storedJsonOfText', () => {
  const stored = (text: string) => nativeJson!.storedJsonOfText(text);

  it('minifies as the reference writes the tree: lexemes and key order kept, strings as JSON.stringify escapes them', () => {
    expect(stored(' { "b" : 1.0 , "a" : [ -0 , 1E2 , 12345678901234567890 ] } ')).toBe('{"b":1.0,"a":[-0,1E2,12345678901234567890]}');
    const escapes = '["\\u0041\\/\\u00e9", "\\ud83d\\ude00\\ud800", "\\u001F\\b\\"\\\\", "é\u2028"]';
    expect(stored(escapes)).toBe(storedOfTree(escapes));
    expect(stored(escapes)).toBe('["A/é","😀\\ud800","\\u001f\\b\\"\\\\","é\u2028"]');
  });

  it('leaves to the reference what it writes in another order or cannot write', () => {
    // Array-index keys come first in a JavaScript object; a repeated key keeps its last value;
    // NaN and Infinity are stored as null; nesting past the limit.
    for (const text of [
      '{"b":1,"0":2}',
      '{"a":1,"a":2}',
      '[NaN]',
      '{"x":-Infinity}',
      '['.repeat(1100) + ']'.repeat(1100),
      '{"a":}',
      '[1,]',
    ]) {
      expect(stored(text), text).toBeUndefined();
    }
    // Keys that only look like indices stay in place.
    expect(stored('{"b":1,"01":2,"4294967295":3,"-1":4}')).toBe('{"b":1,"01":2,"4294967295":3,"-1":4}');
  });

  it(`agrees with the reference on ${TEXTS.toLocaleString('en-US')} random, respelt and malformed texts (WEFT_FUZZ_SEED=${SEED})`, () => {
    console.info(`stored JSON fuzz: WEFT_FUZZ_SEED=${SEED}`);
    const { answered, refused } = fuzzAgainstReference(stored, SEED, TEXTS, storedOfTree);
    expect(answered).toBeGreaterThan(TEXTS * 0.5);
    expect(refused).toBeGreaterThan(TEXTS * 0.1);
  }, 300_000);
});

// With or without the addon (WEFT_JSON_NATIVE=0): a value kept as its text is encoded as its tree.
describe('encodeValue of a value kept as its text', () => {
  it('gives the digest, size and stored text of its lossless tree', () => {
    for (const text of ['{"b":1.0,"a":[1,-0,1E2]}', '{"k":1,"k":2}', '{"0":1,"b":[NaN]}', '{"s":"\\u0041\\/é"}', '[{"x":[]},"y"]']) {
      expect(encodeValue(undefined, new JsonText(text)), text).toEqual(encodeValue(undefined, parseLossless(text)));
    }
  });
});
