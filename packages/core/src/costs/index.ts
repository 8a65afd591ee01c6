export type { CostEntry } from './cost-entry.ts';
export type { ProjectPrice } from './project-price.ts';
export type { TokenUsage } from './read-usage.ts';
export { readUsage } from './read-usage.ts';
export { priceUsage, priceUsageAtProjectPrice, priceUsageAtRecordedPrice, type RecordedPrice } from './price-usage.ts';
export { choosePrice, computeCosts, type ProjectPricing } from './compute-costs.ts';
