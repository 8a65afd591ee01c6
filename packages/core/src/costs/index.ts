export type { CostEntry } from './cost-entry.ts';
export type { TokenUsage } from './read-usage.ts';
export { readUsage } from './read-usage.ts';
export { priceUsage } from './price-usage.ts';
export { computeCosts } from './compute-costs.ts';
