// Budgets are counted in integer units of 10^-12 USD: Redis' INCRBY adds integers atomically, and
// a price per token (a price per million divided by a million) needs up to 12 digits after the
// point to stay exact. A signed 64-bit counter then holds up to about 9.2 million USD per period,
// far above any budget. A cost with more digits (none of the shipped prices has them) is rounded
// up, so a budget is never under-counted.
import { parseDecimal, formatDecimal, type Decimal } from '@weft/core';

export const USD_SCALE = 12;

/** An exact decimal string of USD as integer units (rounded up past 12 digits). */
export function usdToUnits(usd: string): bigint {
  return decimalToUnits(parseDecimal(usd));
}

function decimalToUnits(d: Decimal): bigint {
  if (d.scale <= USD_SCALE) return d.coefficient * 10n ** BigInt(USD_SCALE - d.scale);
  const divisor = 10n ** BigInt(d.scale - USD_SCALE);
  const units = d.coefficient / divisor;
  return d.coefficient % divisor > 0n ? units + 1n : units;
}

/** Units back to a canonical decimal string (for messages). */
export function unitsToUsd(units: bigint): string {
  return formatDecimal({ coefficient: units, scale: USD_SCALE });
}
