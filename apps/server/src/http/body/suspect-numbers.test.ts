// The native prefilter of numbers that would not be stored as sent, against the regex it replaces.
import { nativeJson, seededRandom } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { MAX_NUMBER_CHARS, mayHoldInexactNumber, SUSPECT } from './parse-json.ts';

const FRACTION = MAX_NUMBER_CHARS - 24;

describe('hasSuspectNumber', () => {
  it('answers as the regex does on random text of digits, dots and exponents', () => {
    const random = seededRandom(7);
    const alphabet = '0123456789012345678901234567890123456789..eE+-x" ,[';
    for (let i = 0; i < 20_000; i++) {
      const length = Math.floor(random() * 60);
      let text = '';
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(nativeJson!.hasSuspectNumber(text, 5), text).toBe(new RegExp(SUSPECT.source.replace(`{${FRACTION}}`, '{5}')).test(text));
    }
  });

  it('finds each kind of suspect, and not logprobs', () => {
    const cases = [
      ['[-0.6920687857214479, 12345678901234.5]', false],
      ['[1234567890123456]', true],
      ['[1e300]', true],
      ['[1E-300]', true],
      ['[1e30]', false],
      [`[0.${'1'.repeat(FRACTION)}]`, true],
      [`[0.${'1'.repeat(FRACTION - 1)}]`, false],
    ] as const;
    for (const [text, suspect] of cases) {
      expect(SUSPECT.test(text), text).toBe(suspect);
      expect(nativeJson!.hasSuspectNumber(text, FRACTION), text).toBe(suspect);
    }
  });
});

describe('mayHoldInexactNumber', () => {
  it('finds a suspect wherever its windows cut a long text', () => {
    const filler = '[0.1234567890123456,"e12",1.5e12],'.repeat(70_000); // ~2.4 MB, no suspect
    expect(mayHoldInexactNumber(filler)).toBe(false);
    for (const at of [0, (1 << 20) - 8, 1 << 20, (1 << 20) + 3, 2 * (1 << 20) - 1, filler.length]) {
      for (const suspect of ['12345678901234567', '1e-999', `.${'7'.repeat(FRACTION)}`]) {
        const text = filler.slice(0, at) + ',' + suspect + ',' + filler.slice(at);
        expect(SUSPECT.test(text)).toBe(true);
        expect(mayHoldInexactNumber(text), `${suspect.slice(0, 20)} at ${at}`).toBe(true);
      }
    }
  });
});
