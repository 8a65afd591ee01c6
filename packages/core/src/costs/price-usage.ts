import { add, formatDecimal, mulInt, parseDecimal, type Decimal } from '../decimal/index.ts';
import type { ModelEntry } from '../router/index.ts';
import type { CostEntry } from './cost-entry.ts';
import type { TokenUsage } from './read-usage.ts';

/**
 * Prices one model's usage at its catalogue list price. Every sum is
 * exact; each cost becomes a float exactly once, in toNumber().
 */
export function priceUsage(usage: TokenUsage, model: ModelEntry): CostEntry {
  const prompt = parseDecimal(model.pricing.prompt);
  const completion = parseDecimal(model.pricing.completion);
  const cacheRead = parseDecimal(model.pricing.input_cache_read);

  const uncached = BigInt(usage.prompt_tokens - usage.cached_tokens);
  const cachedCost = mulInt(cacheRead, BigInt(usage.cached_tokens));
  const promptCost = add(mulInt(prompt, uncached), cachedCost);
  const completionCost = mulInt(completion, BigInt(usage.completion_tokens));

  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    requests: usage.requests,
    total_tokens: usage.total_tokens,
    cached_tokens: usage.cached_tokens,
    prompt_tokens_total_cost: toNumber(promptCost),
    completion_tokens_total_cost: toNumber(completionCost),
    cached_tokens_total_cost: toNumber(cachedCost),
    prompt_token_cost: toNumber(prompt),
    completion_token_cost: toNumber(completion),
    prompt_token_cost_unit: 'USD',
    completion_token_cost_unit: 'USD',
    effective_date: new Date(model.created * 1000).toISOString(),
    provider_id: 'weft',
    pricing_level: 'default',
  };
}

// Number() on a plain decimal string is correctly rounded: the nearest
// double to the exact value, e.g. exactly 0.22 for "0.22".
function toNumber(d: Decimal): number {
  return Number(formatDecimal(d));
}
