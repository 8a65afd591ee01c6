import { add, formatDecimal, mulInt, parseDecimal, type Decimal } from '../decimal/index.ts';
import type { ModelEntry, ModelPricing } from '../router/index.ts';
import type { CostEntry } from './cost-entry.ts';
import type { ProjectPrice } from './project-price.ts';
import type { TokenUsage } from './read-usage.ts';

/** Per-token prices of one model. */
interface Rates {
  prompt: Decimal;
  completion: Decimal;
  cacheRead: Decimal;
  cacheCreation: Decimal;
}

/**
 * Prices one model's usage at its catalogue list price. Every sum is
 * exact; each cost becomes a float exactly once, in toNumber(). The
 * catalogue has no cache-write price: those tokens cost the prompt price.
 */
export function priceUsage(usage: TokenUsage, model: ModelEntry): CostEntry {
  const prompt = parseDecimal(model.pricing.prompt);
  const rates = {
    prompt,
    completion: parseDecimal(model.pricing.completion),
    cacheRead: parseDecimal(model.pricing.input_cache_read),
    cacheCreation: prompt,
  };
  return {
    ...tokenCosts(usage, rates).entry,
    prompt_token_cost_unit: 'USD',
    completion_token_cost_unit: 'USD',
    effective_date: new Date(model.created * 1000).toISOString(),
    provider_id: 'weft',
    pricing_level: 'default',
  };
}

/** The price a call was served at, recorded with it (the inference router's serving endpoint). */
export interface RecordedPrice {
  /** The `summary.usage` key it prices. */
  model: string;
  /** Who served it: the cost entry's provider_id. */
  provider: string;
  pricing: Pick<ModelPricing, 'prompt' | 'completion' | 'input_cache_read'>;
}

/**
 * Prices one model's usage at the price its call recorded: the same arithmetic as the catalogue's
 * (the router's prices have no cache-write price either), effective from the call's own start.
 */
export function priceUsageAtRecordedPrice(usage: TokenUsage, price: RecordedPrice, startedAt: string): CostEntry {
  const prompt = parseDecimal(price.pricing.prompt);
  const rates = {
    prompt,
    completion: parseDecimal(price.pricing.completion),
    cacheRead: parseDecimal(price.pricing.input_cache_read),
    cacheCreation: prompt,
  };
  return {
    ...tokenCosts(usage, rates).entry,
    prompt_token_cost_unit: 'USD',
    completion_token_cost_unit: 'USD',
    effective_date: startedAt,
    provider_id: price.provider,
    pricing_level: 'default',
  };
}

/**
 * Prices one model's usage at a project's price, as Weave applies one: cache reads and writes at
 * their own prices when the price gives them (else at the prompt price), and the price's
 * provenance beside the costs.
 */
export function priceUsageAtProjectPrice(usage: TokenUsage, price: ProjectPrice): CostEntry {
  const prompt = parseDecimal(price.prompt_token_cost);
  const rates: Rates = {
    prompt,
    completion: parseDecimal(price.completion_token_cost),
    cacheRead: price.cache_read_input_token_cost === null ? prompt : parseDecimal(price.cache_read_input_token_cost),
    cacheCreation: price.cache_creation_input_token_cost === null ? prompt : parseDecimal(price.cache_creation_input_token_cost),
  };
  const { entry, creationCost } = tokenCosts(usage, rates);
  return {
    ...entry,
    prompt_token_cost_unit: price.prompt_token_cost_unit,
    completion_token_cost_unit: price.completion_token_cost_unit,
    effective_date: price.effective_date,
    provider_id: price.provider_id,
    pricing_level: 'project',
    pricing_level_id: price.project_id,
    created_at: price.created_at,
    created_by: price.created_by,
    cache_read_input_token_cost: toNumber(rates.cacheRead),
    cache_creation_input_token_cost: toNumber(rates.cacheCreation),
    cache_creation_input_tokens: usage.cache_creation_tokens,
    cache_creation_input_tokens_total_cost: toNumber(creationCost),
  };
}

type TokenCosts = Pick<
  CostEntry,
  | 'prompt_tokens'
  | 'completion_tokens'
  | 'requests'
  | 'total_tokens'
  | 'cached_tokens'
  | 'prompt_tokens_total_cost'
  | 'completion_tokens_total_cost'
  | 'cached_tokens_total_cost'
  | 'prompt_token_cost'
  | 'completion_token_cost'
>;

// The prompt is three parts: cache reads, cache writes, and the rest at the prompt price.
function tokenCosts(usage: TokenUsage, rates: Rates): { entry: TokenCosts; creationCost: Decimal } {
  const uncached = BigInt(usage.prompt_tokens - usage.cached_tokens - usage.cache_creation_tokens);
  const cachedCost = mulInt(rates.cacheRead, BigInt(usage.cached_tokens));
  const creationCost = mulInt(rates.cacheCreation, BigInt(usage.cache_creation_tokens));
  const promptCost = add(add(mulInt(rates.prompt, uncached), cachedCost), creationCost);
  const completionCost = mulInt(rates.completion, BigInt(usage.completion_tokens));
  const entry = {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    requests: usage.requests,
    total_tokens: usage.total_tokens,
    cached_tokens: usage.cached_tokens,
    prompt_tokens_total_cost: toNumber(promptCost),
    completion_tokens_total_cost: toNumber(completionCost),
    cached_tokens_total_cost: toNumber(cachedCost),
    prompt_token_cost: toNumber(rates.prompt),
    completion_token_cost: toNumber(rates.completion),
  };
  return { entry, creationCost };
}

// Number() on a plain decimal string is correctly rounded: the nearest
// double to the exact value, e.g. exactly 0.22 for "0.22".
function toNumber(d: Decimal): number {
  return Number(formatDecimal(d));
}
