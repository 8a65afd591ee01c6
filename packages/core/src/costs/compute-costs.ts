import type { Catalogue } from '../router/index.ts';
import type { CostEntry } from './cost-entry.ts';
import { priceUsage } from './price-usage.ts';
import { readUsage } from './read-usage.ts';

/**
 * Builds Weave's `summary.weave.costs` from a call's `summary.usage`
 * (model id → usage). Models missing from the catalogue get no entry;
 * retired models are still priced, since old calls used them. Returns
 * undefined when nothing could be priced so the caller omits `costs`.
 * Never throws: stored usage is untrusted and read-time failures would
 * break listing calls.
 */
export function computeCosts(usage: unknown, catalogue: Catalogue): Record<string, CostEntry> | undefined {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return undefined;
  let costs: Record<string, CostEntry> | undefined;
  for (const [modelId, modelUsage] of Object.entries(usage)) {
    const model = catalogue.byId(modelId);
    if (!model) continue;
    costs ??= {};
    // defineProperty, not assignment: an id like "__proto__" must stay a key.
    Object.defineProperty(costs, modelId, {
      value: priceUsage(readUsage(modelUsage), model),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return costs;
}
