// A project's prices for include_costs: those of the models a page of calls used, read once per
// page through llm_token_prices_llm_idx (project_id, llm_id, …), and handed to deriveSummary.
import type { ProjectPrice } from '@weft/core';
import type { Db } from '../db/index.ts';

/** Model id → the project's prices of it. */
export type PriceBook = ReadonlyMap<string, readonly ProjectPrice[]>;
export const NO_PRICES: PriceBook = new Map();

/** The models a call's stored summary has usage of. */
export function usageModels(summary: unknown): string[] {
  if (typeof summary !== 'object' || summary === null) return [];
  const usage = (summary as { usage?: unknown }).usage;
  return typeof usage === 'object' && usage !== null && !Array.isArray(usage) ? Object.keys(usage) : [];
}

/** The project's prices of `models` (no statement when there are none). */
export async function projectPrices(db: Db, projectId: string, models: Iterable<string>): Promise<PriceBook> {
  const ids = [...new Set(models)];
  if (ids.length === 0) return NO_PRICES;
  const book = new Map<string, ProjectPrice[]>();
  // A page of 500 calls names few models; chunks keep a pathological page within bind limits.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.kysely
      .selectFrom('llm_token_prices')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('llm_id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const price: ProjectPrice = {
        id: r.id,
        llm_id: r.llm_id,
        project_id: r.project_id,
        provider_id: r.provider_id,
        effective_date: r.effective_date,
        prompt_token_cost: r.prompt_token_cost,
        completion_token_cost: r.completion_token_cost,
        cache_read_input_token_cost: r.cache_read_input_token_cost,
        cache_creation_input_token_cost: r.cache_creation_input_token_cost,
        prompt_token_cost_unit: r.prompt_token_cost_unit,
        completion_token_cost_unit: r.completion_token_cost_unit,
        created_at: r.created_at,
        created_by: r.svc_user_id,
      };
      const prices = book.get(r.llm_id);
      if (prices) prices.push(price);
      else book.set(r.llm_id, [price]);
    }
  }
  return book;
}
