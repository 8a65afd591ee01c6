export { createRouterLimits, RATE_LIMIT_ERROR, BUDGET_EXCEEDED } from './create-router-limits.ts';
export type { RouterLimits, RouterLimitsOptions } from './create-router-limits.ts';
export type { RedisCircuit } from './redis-circuit.ts';
export { usdToUnits, unitsToUsd } from './usd-units.ts';
