// The relay's use of selection, health and cost (h-router-config's modules), in one place.
import { HealthBook } from './health/index.ts';
import type { RouterConfig } from './types.ts';

export { planEndpoints, type PlannedEndpoint } from './select/index.ts';
export { priceUsage } from './cost/index.ts';
export type { HealthBook };

export const newHealthBook = (config: RouterConfig): HealthBook => new HealthBook(config.routing);
