import type { Catalogue, ModelEntry } from '../router/index.ts';
import type { CostEntry } from './cost-entry.ts';
import { priceUsage, priceUsageAtProjectPrice, priceUsageAtRecordedPrice, type RecordedPrice } from './price-usage.ts';
import type { ProjectPrice } from './project-price.ts';
import { readUsage } from './read-usage.ts';

/** A project's own prices, for one call. */
export interface ProjectPricing {
  /** The project's prices of a model (any order). */
  prices(llmId: string): readonly ProjectPrice[];
  /** When the call started (stored form): which prices were in effect. */
  startedAt: string;
  /**
   * The price the call itself recorded for one of its models (the inference router's serving
   * endpoint, summary.gateway). It is what that request was charged, so it wins over the
   * project's and the catalogue's prices for that model.
   */
  recorded?: RecordedPrice | undefined;
}

/**
 * Builds Weave's `summary.weave.costs` from a call's `summary.usage`
 * (model id → usage). A model is priced at the project's price or the
 * router catalogue's, chosen as Weave chooses (`choosePrice`); models
 * with neither get no entry; retired models are still priced, since old
 * calls used them. Returns undefined when nothing could be priced so the
 * caller omits `costs`. Never throws: stored usage is untrusted and
 * read-time failures would break listing calls.
 */
export function computeCosts(usage: unknown, catalogue: Catalogue, project?: ProjectPricing): Record<string, CostEntry> | undefined {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return undefined;
  let costs: Record<string, CostEntry> | undefined;
  for (const [modelId, modelUsage] of Object.entries(usage)) {
    const recorded = project?.recorded;
    if (recorded && recorded.model === modelId) {
      costs ??= {};
      define(costs, modelId, priceUsageAtRecordedPrice(readUsage(modelUsage), recorded, project?.startedAt ?? ''));
      continue;
    }
    const price = choosePrice(catalogue.byId(modelId), project?.prices(modelId) ?? [], project?.startedAt);
    if (!price) continue;
    costs ??= {};
    const tokens = readUsage(modelUsage);
    define(costs, modelId, price.level === 'project' ? priceUsageAtProjectPrice(tokens, price.price) : priceUsage(tokens, price.model));
  }
  return costs;
}

// defineProperty, not assignment: an id like "__proto__" must stay a key.
function define(costs: Record<string, CostEntry>, modelId: string, value: CostEntry): void {
  Object.defineProperty(costs, modelId, { value, enumerable: true, writable: true, configurable: true });
}

type Chosen = { level: 'project'; price: ProjectPrice } | { level: 'default'; model: ModelEntry };

/**
 * Weave's choice (weave/trace_server/token_costs.py, the ranking of `llm_token_prices`): prices in
 * effect when the call started (effective_date ≤ started_at) come first; among them a project's
 * price before the default (the catalogue), and the latest effective_date first. Only when no
 * price was in effect yet does a later one apply, in the same order. Equal effective dates: the
 * price added last wins.
 */
export function choosePrice(
  model: ModelEntry | undefined,
  prices: readonly ProjectPrice[],
  startedAt: string | undefined,
): Chosen | undefined {
  const started = startedAt ?? '';
  const inEffect = latest(prices.filter((p) => p.effective_date <= started));
  if (inEffect) return { level: 'project', price: inEffect };
  if (model && new Date(model.created * 1000).toISOString() <= started) return { level: 'default', model };
  const later = latest(prices);
  if (later) return { level: 'project', price: later };
  return model ? { level: 'default', model } : undefined;
}

// Stored datetimes are fixed-width ISO text: text order is time order.
function latest(prices: readonly ProjectPrice[]): ProjectPrice | undefined {
  let best: ProjectPrice | undefined;
  for (const p of prices) {
    if (!best || compareKey(p) > compareKey(best)) best = p;
  }
  return best;
}

const compareKey = (p: ProjectPrice) => `${p.effective_date}|${p.created_at}|${p.id}`;
