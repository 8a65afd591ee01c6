export { priceUsage } from './price-usage.ts';
