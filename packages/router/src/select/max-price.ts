import { decimalFromNumberLexeme, parseDecimal, type Decimal, type ModelPricing } from '@weft/core';
import { invalidParam } from '../openai-errors.ts';
import type { ProviderPreferences } from '../types.ts';

type MaxPrice = NonNullable<ProviderPreferences['max_price']>;
const KINDS = ['prompt', 'completion', 'request', 'image'] as const;
/** OpenRouter's max_price is per million tokens for token prices, per unit for request and image. */
const PER_MILLION: ReadonlySet<string> = new Set(['prompt', 'completion']);

export type PriceLimit = Partial<Record<(typeof KINDS)[number], Decimal>>;

/** Reads the request's max_price exactly (a float such as 0.15 as its shortest decimal, never its binary value). */
export function readMaxPrice(maxPrice: MaxPrice): PriceLimit {
  const limit: PriceLimit = {};
  for (const kind of KINDS) {
    const value = maxPrice[kind];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw invalidParam(
        `provider.max_price.${kind}`,
        `provider.max_price.${kind} must be a number ≥ 0 (USD${PER_MILLION.has(kind) ? ' per million tokens' : ''})`,
      );
    }
    limit[kind] = decimalFromNumberLexeme(String(value));
  }
  return limit;
}

/** The first price kind of `pricing` above `limit`, if any. */
export function priceAbove(pricing: ModelPricing, limit: PriceLimit): string | undefined {
  for (const kind of KINDS) {
    const max = limit[kind];
    if (max === undefined) continue;
    let price = parseDecimal(pricing[kind]);
    if (PER_MILLION.has(kind)) price = timesMillion(price);
    if (compare(price, max) > 0) return kind;
  }
  return undefined;
}

/** −1, 0 or 1 as a is less than, equal to or greater than b, exactly. */
export function compare(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.coefficient * 10n ** BigInt(scale - a.scale);
  const y = b.coefficient * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

function timesMillion(d: Decimal): Decimal {
  return d.scale >= 6
    ? { coefficient: d.coefficient, scale: d.scale - 6 }
    : { coefficient: d.coefficient * 10n ** BigInt(6 - d.scale), scale: 0 };
}
