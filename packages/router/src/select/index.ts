export { planEndpoints, servedBy, type PlannedEndpoint, type PlanRequest } from './plan-endpoints.ts';
