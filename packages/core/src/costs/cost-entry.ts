/**
 * One model's entry in a call's `summary.weave.costs`, shaped like Weave's
 * LLMCostSchema plus the cached-token breakdown.
 *
 * Costs are JSON numbers because that is what Weave clients read. They
 * are computed in exact decimals and converted with Number() only at the
 * very end, so each one is the exact value rounded once (no accumulated
 * float error). Weave has no slot for per-request or per-image prices;
 * they are not included here.
 */
export interface CostEntry {
  prompt_tokens: number;
  completion_tokens: number;
  requests: number;
  total_tokens: number;
  /** Part of prompt_tokens served from the prompt cache. */
  cached_tokens: number;
  /** Cost of ALL prompt tokens: uncached at `prompt`, cached at `input_cache_read`. */
  prompt_tokens_total_cost: number;
  completion_tokens_total_cost: number;
  /** Cost of the cached part alone; already included in prompt_tokens_total_cost. */
  cached_tokens_total_cost: number;
  /** Per-token list prices. */
  prompt_token_cost: number;
  completion_token_cost: number;
  prompt_token_cost_unit: 'USD';
  completion_token_cost_unit: 'USD';
  /** ISO date-time the price applies from: the catalogue model's `created`. */
  effective_date: string;
  provider_id: 'weft';
  pricing_level: 'default';
}
