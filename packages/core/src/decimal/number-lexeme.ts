import type { Decimal } from './decimal.ts';

// A JSON number as written (RFC 8259): what Python's json.dumps and pydantic write for a float,
// exponents included ("5e-06", "1.5E+3").
const JSON_NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Beyond any float a client can send (doubles stop near 1e308 and 5e-324). */
const MAX_EXPONENT = 400;

/**
 * The exact value of a JSON number lexeme: "5e-06" is 0.000005, digit for digit, with no float
 * in between (Number("5e-06") would already be a rounded binary fraction for most prices).
 * Throws an Error naming the input for anything else (NaN, Infinity, hex, whitespace) and for
 * exponents beyond ±400.
 */
export function decimalFromNumberLexeme(lexeme: string): Decimal {
  const match = JSON_NUMBER.exec(lexeme);
  const exponent = match ? Number(match[4] ?? '0') : NaN;
  if (!match || !Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_EXPONENT) {
    throw new Error(`${JSON.stringify(lexeme)} is not a finite JSON number with an exponent within ±${MAX_EXPONENT}`);
  }
  const [, sign, whole = '0', fraction = ''] = match;
  let coefficient = BigInt(whole + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    coefficient *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { coefficient: sign === '-' ? -coefficient : coefficient, scale };
}
