import type { Decimal } from './decimal.ts';

/** Exact sum; the result carries the larger of the two scales. */
export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return {
    coefficient: rescale(a, scale) + rescale(b, scale),
    scale,
  };
}

/** Exact product; scales add, so no digit is ever rounded away. */
export function mul(a: Decimal, b: Decimal): Decimal {
  return { coefficient: a.coefficient * b.coefficient, scale: a.scale + b.scale };
}

/**
 * Exact product with an integer count (tokens, requests). Accepts a
 * number only when it is a safe integer: a fractional or unsafe count
 * would silently reintroduce float error.
 */
export function mulInt(a: Decimal, n: bigint | number): Decimal {
  if (typeof n === 'number' && !Number.isSafeInteger(n)) {
    throw new Error(`mulInt: ${n} is not a safe integer; pass a bigint for large counts`);
  }
  return { coefficient: a.coefficient * BigInt(n), scale: a.scale };
}

function rescale(d: Decimal, scale: number): bigint {
  return d.coefficient * 10n ** BigInt(scale - d.scale);
}
