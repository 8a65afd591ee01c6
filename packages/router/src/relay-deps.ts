// What the relay uses of selection, health and cost, in one place.
import { HealthBook } from './health/index.ts';
import type { RouterConfig } from './types.ts';

export { planEndpoints, servedBy, type PlannedEndpoint } from './select/index.ts';
export { priceUsage } from './cost/index.ts';
export type { HealthBook };

export const newHealthBook = (config: RouterConfig): HealthBook => new HealthBook(config.routing);
