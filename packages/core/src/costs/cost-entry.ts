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
  /** Cost of ALL prompt tokens: uncached at `prompt`, cached at the cache-read price (and, for a project price, cache writes at its cache-creation price). */
  prompt_tokens_total_cost: number;
  completion_tokens_total_cost: number;
  /** Cost of the cached part alone; already included in prompt_tokens_total_cost. */
  cached_tokens_total_cost: number;
  /** Per-token list prices. */
  prompt_token_cost: number;
  completion_token_cost: number;
  /** USD for the catalogue; a project price's own unit as it was added. */
  prompt_token_cost_unit: string;
  completion_token_cost_unit: string;
  /** ISO date-time the price applies from: the catalogue model's `created`, or the project price's effective_date. */
  effective_date: string;
  /** `weft` for the catalogue; a project price's provider (`default` unless given). */
  provider_id: string;
  /** `default`: the router catalogue; `project`: a price added with cost/create. */
  pricing_level: 'default' | 'project';
  // A project price's own facts, as Weave's LLMCostSchema names them (absent for the catalogue).
  /** The project the price belongs to. */
  pricing_level_id?: string;
  /** When the price was added, and by whom. */
  created_at?: string;
  created_by?: string;
  /** The per-token prices applied to cache reads (cached_tokens) and cache writes. */
  cache_read_input_token_cost?: number;
  cache_creation_input_token_cost?: number;
  /** Prompt tokens written to the cache (usage `cache_creation_input_tokens`), and their cost (included in prompt_tokens_total_cost). */
  cache_creation_input_tokens?: number;
  cache_creation_input_tokens_total_cost?: number;
}
