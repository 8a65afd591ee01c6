import { add, formatDecimal, mulInt, parseDecimal, type ModelPricing } from '@weft/core';
import type { PricedUsage, Usage } from '../types.ts';

/**
 * The exact cost of an answer at the serving endpoint's per-token prices, in decimal (never a
 * float): uncached prompt tokens at `prompt`, cached ones at `input_cache_read` (cached tokens are
 * part of prompt_tokens), completion tokens (reasoning included) at `completion`, plus `request`.
 * `image` is not charged: usage counts image tokens inside prompt_tokens, not images.
 * Upstream counts that are not non-negative integers count as zero (an upstream's bad usage must
 * not fail an answer already given); cached tokens are capped at prompt_tokens.
 */
export function priceUsage(usage: Usage, pricing: ModelPricing): PricedUsage {
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  const cached = Math.min(count(usage.prompt_tokens_details?.cached_tokens), prompt);
  let cost = mulInt(parseDecimal(pricing.prompt), prompt - cached);
  cost = add(cost, mulInt(parseDecimal(pricing.input_cache_read), cached));
  cost = add(cost, mulInt(parseDecimal(pricing.completion), completion));
  cost = add(cost, parseDecimal(pricing.request));
  return { usage, cost_usd: formatDecimal(cost) };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}
