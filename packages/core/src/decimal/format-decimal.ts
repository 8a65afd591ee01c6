import type { Decimal } from './decimal.ts';

/**
 * Formats as a canonical plain decimal: no exponent, no trailing
 * fractional zeros, no leading zeros, "0" for zero (never "-0").
 * The output always matches ^-?(0|[1-9]\d*)(\.\d*[1-9])?$ so equal values
 * always produce equal strings (safe to compare, hash and cache).
 */
export function formatDecimal(d: Decimal): string {
  if (d.coefficient === 0n) return '0';
  const negative = d.coefficient < 0n;
  const digits = (negative ? -d.coefficient : d.coefficient).toString();
  // Left-pad so there is at least one digit before the point.
  const padded = digits.padStart(d.scale + 1, '0');
  const whole = padded.slice(0, padded.length - d.scale);
  const fraction = padded.slice(padded.length - d.scale).replace(/0+$/, '');
  return (negative ? '-' : '') + whole + (fraction === '' ? '' : `.${fraction}`);
}
