import { describe, expect, it } from 'vitest';
import {
  add,
  decimalFromNumberLexeme,
  formatDecimal,
  isPlainDecimalString,
  mul,
  mulInt,
  parseDecimal,
  perMillionToPerToken,
  ZERO,
} from './index.ts';

const CANONICAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
const fmt = (s: string) => formatDecimal(parseDecimal(s));

describe('parseDecimal', () => {
  it('reads plain decimal strings exactly', () => {
    expect(parseDecimal('0.00000022')).toEqual({ coefficient: 22n, scale: 8 });
    expect(parseDecimal('12')).toEqual({ coefficient: 12n, scale: 0 });
    expect(parseDecimal('0')).toEqual({ coefficient: 0n, scale: 0 });
    expect(parseDecimal('-3.50')).toEqual({ coefficient: -350n, scale: 2 });
  });

  it.each(['', ' 1', '1 ', '2.2e-7', '1E3', '+1', '--1', '.5', '5.', '1.2.3', 'NaN', 'Infinity', '0x10', '1_000'])(
    'rejects %j with an error naming the input',
    (s) => {
      expect(() => parseDecimal(s)).toThrow(`${JSON.stringify(s)} is not a plain decimal string`);
      expect(isPlainDecimalString(s)).toBe(false);
    },
  );

  it('isPlainDecimalString rejects non-strings such as the float 2.2e-7', () => {
    expect(isPlainDecimalString(2.2e-7)).toBe(false);
    expect(isPlainDecimalString(null)).toBe(false);
    expect(isPlainDecimalString('0.00000022')).toBe(true);
  });
});

describe('formatDecimal', () => {
  it('never uses exponent notation where JS String() does', () => {
    expect(String(2.2e-7)).toBe('2.2e-7'); // the problem we avoid
    expect(fmt('0.00000022')).toBe('0.00000022');
    expect(formatDecimal({ coefficient: 1n, scale: 30 })).toBe('0.000000000000000000000000000001');
    expect(formatDecimal({ coefficient: 10n ** 25n, scale: 0 })).toBe('10000000000000000000000000');
  });

  it('trims trailing zeros and leading zeros, and prints zero as "0"', () => {
    expect(fmt('1.500')).toBe('1.5');
    expect(fmt('2.000')).toBe('2');
    expect(fmt('007.10')).toBe('7.1');
    expect(fmt('0.000')).toBe('0');
    expect(fmt('-0.0')).toBe('0');
    expect(formatDecimal(ZERO)).toBe('0');
    expect(fmt('-0.5')).toBe('-0.5');
  });

  it('is the identity on canonical strings (parse→format round-trips)', () => {
    const samples = ['0', '1', '-1', '12', '0.1', '0.00000022', '0.0000008', '0.00000285', '123456789.000000001', '-0.000001'];
    for (const s of samples) {
      expect(CANONICAL.test(s)).toBe(true);
      expect(fmt(s)).toBe(s);
    }
  });

  it('always produces canonical plain decimals, even across many scales', () => {
    for (let scale = 0; scale <= 40; scale++) {
      for (const coefficient of [0n, 1n, -7n, 10n, 1000n, 123456789n, -100200300n]) {
        const out = formatDecimal({ coefficient, scale });
        expect(out).toMatch(CANONICAL);
        expect(out).not.toMatch(/e/i);
        expect(parseDecimal(out).coefficient * 10n ** BigInt(scale)).toBe(coefficient * 10n ** BigInt(parseDecimal(out).scale));
      }
    }
  });
});

describe('arithmetic', () => {
  it('adds exactly where floats do not', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(formatDecimal(add(parseDecimal('0.1'), parseDecimal('0.2')))).toBe('0.3');
    expect(formatDecimal(add(parseDecimal('1.005'), parseDecimal('-1')))).toBe('0.005');
  });

  it('multiplies prices by token counts without float noise', () => {
    expect(String(0.00000017 * 7)).toBe('0.0000011899999999999998'); // floats drift
    expect(formatDecimal(mulInt(parseDecimal('0.00000017'), 7))).toBe('0.00000119');
    expect(formatDecimal(mulInt(parseDecimal('0.0000008'), 3))).toBe('0.0000024');
    expect(formatDecimal(mulInt(parseDecimal('0.00000022'), 1_000_000n))).toBe('0.22');
    expect(formatDecimal(mul(parseDecimal('0.0000008'), parseDecimal('3')))).toBe('0.0000024');
    expect(formatDecimal(mul(parseDecimal('1.5'), parseDecimal('-0.2')))).toBe('-0.3');
  });

  it('handles counts beyond Number.MAX_SAFE_INTEGER when given as bigint', () => {
    expect(formatDecimal(mulInt(parseDecimal('0.1'), 2n ** 64n))).toBe('1844674407370955161.6');
  });

  it('refuses fractional or unsafe number counts instead of rounding silently', () => {
    expect(() => mulInt(parseDecimal('1'), 1.5)).toThrow(/not a safe integer/);
    expect(() => mulInt(parseDecimal('1'), 2 ** 60)).toThrow(/not a safe integer/);
  });
});

describe('perMillionToPerToken', () => {
  it('shifts the point six places with no float division', () => {
    expect(perMillionToPerToken('0.22')).toBe('0.00000022');
    expect(perMillionToPerToken('0.8')).toBe('0.0000008');
    expect(String(0.8 / 1e6)).toBe('8.000000000000001e-7'); // what float division prints
    expect(perMillionToPerToken('2.85')).toBe('0.00000285');
    expect(perMillionToPerToken('15')).toBe('0.000015');
    expect(perMillionToPerToken('1000000')).toBe('1');
    expect(perMillionToPerToken('0')).toBe('0');
  });

  it('rejects invalid input', () => {
    expect(() => perMillionToPerToken('2.2e-1')).toThrow(/not a plain decimal string/);
  });
});

describe('decimalFromNumberLexeme', () => {
  it('reads JSON number lexemes exactly, exponents included', () => {
    const read = (s: string) => formatDecimal(decimalFromNumberLexeme(s));
    expect(read('5e-06')).toBe('0.000005');
    expect(read('5e-6')).toBe('0.000005');
    expect(read('2.5E-7')).toBe('0.00000025');
    expect(read('1.5e+3')).toBe('1500');
    expect(read('0.0005')).toBe('0.0005');
    expect(read('1.0')).toBe('1');
    expect(read('-0.0')).toBe('0');
    expect(read('12')).toBe('12');
    // A price with more digits than a double holds keeps them all.
    expect(read('0.00000012345678901234567890123')).toBe('0.00000012345678901234567890123');
    expect(String(Number('0.00000012345678901234567890123'))).toBe('1.2345678901234568e-7'); // what a float keeps
  });

  it.each(['NaN', 'Infinity', '-Infinity', '', ' 1', '01', '.5', '5.', '0x10', '1e', '1e401', '1e-401', '1e99999999999999999999'])(
    'refuses %j',
    (s) => {
      expect(() => decimalFromNumberLexeme(s)).toThrow(/is not a finite JSON number/);
    },
  );
});
