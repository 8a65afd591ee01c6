/**
 * A price a project set for one model (Weave's `cost/create`, pricing level `project`), as the
 * store keeps it: every price an exact plain decimal string, as sent.
 */
export interface ProjectPrice {
  id: string;
  llm_id: string;
  /** The project (Weave's pricing_level_id). */
  project_id: string;
  provider_id: string;
  /** ISO date-time from which the price applies (stored form, UTC with milliseconds). */
  effective_date: string;
  prompt_token_cost: string;
  completion_token_cost: string;
  /** null: not given, cache reads cost the prompt price. */
  cache_read_input_token_cost: string | null;
  /** null: not given, cache writes cost the prompt price. */
  cache_creation_input_token_cost: string | null;
  prompt_token_cost_unit: string;
  completion_token_cost_unit: string;
  created_at: string;
  created_by: string;
}
