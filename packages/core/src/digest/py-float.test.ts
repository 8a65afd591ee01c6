import { describe, expect, it } from 'vitest';
import { pyFloatRepr } from './py-float.ts';

// Expected strings are CPython 3.11 `repr(x)` output.
const cases: Array<[number, string]> = [
  [0, '0.0'],
  [-0, '-0.0'],
  [1, '1.0'],
  [-1.5, '-1.5'],
  [0.1, '0.1'],
  [100, '100.0'],
  [0.0001, '0.0001'],
  [0.00001, '1e-05'],
  [1e-5 * 1.5, '1.5000000000000002e-05'],
  [2.5e-7, '2.5e-07'],
  // eslint-disable-next-line no-loss-of-precision -- the literal rounds, and that rounding is under test
  [123456789.123456789, '123456789.12345679'],
  [1e15, '1000000000000000.0'],
  [9999999999999998, '9999999999999998.0'],
  [1e16, '1e+16'],
  // eslint-disable-next-line no-loss-of-precision -- as above
  [12345678901234567, '1.2345678901234568e+16'],
  [1e22, '1e+22'],
  [1e100, '1e+100'],
  [1.5e-100, '1.5e-100'],
  [-6.666666666666666e19, '-6.666666666666666e+19'],
  [1 / 3, '0.3333333333333333'],
  [0.1 + 0.2, '0.30000000000000004'],
  [Number.MAX_VALUE, '1.7976931348623157e+308'],
  [Number.MIN_VALUE, '5e-324'],
  [NaN, 'NaN'],
  [Infinity, 'Infinity'],
  [-Infinity, '-Infinity'],
];

describe('pyFloatRepr', () => {
  it.each(cases)('repr(%s) is %s', (x, expected) => {
    expect(pyFloatRepr(x)).toBe(expected);
  });

  it('round-trips: the printed digits parse back to the same double', () => {
    for (const x of [Math.PI, -Math.E * 1e-9, 7.577163604216468e-69, 2 ** 60 + 2 ** 10]) {
      expect(Number(pyFloatRepr(x))).toBe(x);
    }
  });
});
