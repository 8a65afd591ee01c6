// A project's own prices of models (Weave's cost/create, cost/query, cost/purge), which
// include_costs uses before the router catalogue's.
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { costCreate } from './cost-create.ts';
import { costPurge } from './cost-purge.ts';
import { costQuery } from './cost-query.ts';

export { NO_PRICES, projectPrices, usageModels, type PriceBook } from './project-prices.ts';

export function costMethods(opts: Pick<StoreOptions, 'db'>) {
  const { db } = opts;
  return storeMethods({
    costCreate: (req, ctx) => costCreate(db, req, ctx),
    costQuery: (req) => costQuery(db, req),
    costPurge: (req) => costPurge(db, req),
  });
}
