// A differential fuzz of the addon's digest dumps against their JavaScript references
// (native-json-differential.ts says what is generated and what must agree).
// WEFT_FUZZ_SEED=<n> replays a run; WEFT_FUZZ_TEXTS sets how many texts (default 100,000).
import { describe, expect, it } from 'vitest';
import { fuzzAgainstReference, losslessDump } from './native-json-differential.ts';
import { nativeJson, nativeJsonDisabled } from './native-json.ts';

const SEED = Number(process.env.WEFT_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TEXTS = Number(process.env.WEFT_FUZZ_TEXTS ?? 100_000);

describe.skipIf(nativeJsonDisabled)('pyJsonDumpOfText, fuzzed against its reference', () => {
  it(`agrees on ${TEXTS.toLocaleString('en-US')} random, respelt and malformed texts (WEFT_FUZZ_SEED=${SEED})`, () => {
    console.info(`native JSON fuzz: WEFT_FUZZ_SEED=${SEED}`);
    const { answered, refused } = fuzzAgainstReference((text) => nativeJson!.pyJsonDumpOfText(text), SEED, TEXTS);
    // The mix exercised both sides: most texts answered natively, many refused by both.
    expect(answered).toBeGreaterThan(TEXTS * 0.5);
    expect(refused).toBeGreaterThan(TEXTS * 0.1);
  }, 300_000);
});

describe.skipIf(nativeJsonDisabled)('pyJsonDumpOfLexemes, fuzzed against its reference', () => {
  it(`agrees on ${TEXTS.toLocaleString('en-US')} random, respelt and malformed texts (WEFT_FUZZ_SEED=${SEED})`, () => {
    const { answered, refused } = fuzzAgainstReference((text) => nativeJson!.pyJsonDumpOfLexemes(text), SEED, TEXTS, losslessDump);
    expect(answered).toBeGreaterThan(TEXTS * 0.5);
    expect(refused).toBeGreaterThan(TEXTS * 0.1);
  }, 300_000);
});
