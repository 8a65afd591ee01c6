import type { Decimal } from './decimal.ts';

// Digits with an optional fractional part and an optional leading '-'.
// Deliberately no exponent, no '+', no bare '.5' or '5.': every accepted
// string reads the same to a human, to JSON consumers and to us.
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** True when `s` is a plain decimal string that `parseDecimal` accepts. */
export function isPlainDecimalString(s: unknown): s is string {
  return typeof s === 'string' && PLAIN_DECIMAL.test(s);
}

/**
 * Parses a plain decimal string such as "0.00000022", "12" or "-3.5".
 * Throws an Error naming the input for anything else (exponents, '+',
 * whitespace, empty strings) rather than guessing what was meant.
 */
export function parseDecimal(s: string): Decimal {
  if (!isPlainDecimalString(s)) {
    throw new Error(
      `${JSON.stringify(s)} is not a plain decimal string (expected digits with an optional ` +
        `leading "-" and optional fractional part, e.g. "0.00000022"; no exponent, sign "+" or whitespace)`,
    );
  }
  const negative = s.startsWith('-');
  const unsigned = negative ? s.slice(1) : s;
  const [whole = '', fraction = ''] = unsigned.split('.');
  const magnitude = BigInt(whole + fraction);
  return { coefficient: negative ? -magnitude : magnitude, scale: fraction.length };
}
