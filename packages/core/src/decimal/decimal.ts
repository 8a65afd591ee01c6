/**
 * An exact decimal number: value = coefficient × 10^-scale.
 *
 * Money is never held in a float: 0.1 + 0.2 !== 0.3 and String(2.2e-7)
 * prints an exponent, both of which would leak into bills and wire
 * formats. BigInt keeps every digit, and the scale keeps the point.
 */
export interface Decimal {
  readonly coefficient: bigint;
  /** Number of digits after the decimal point; a non-negative integer. */
  readonly scale: number;
}

export const ZERO: Decimal = Object.freeze({ coefficient: 0n, scale: 0 });
