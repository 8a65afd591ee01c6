// The one seam between the relay and h-router-config's selection, health and cost: stand-ins
// until that branch is merged, then its modules.
import { HealthBook } from './interim/health-book.ts';
import type { RouterConfig } from './types.ts';

export { planEndpoints, type PlannedEndpoint } from './interim/plan-endpoints.ts';
export { priceUsage } from './interim/price-usage.ts';
export type { HealthBook };

export const newHealthBook = (config: RouterConfig): HealthBook => new HealthBook(config.routing.cooldown_ms);
