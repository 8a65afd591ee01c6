export { planEndpoints, type PlannedEndpoint, type PlanRequest } from './plan-endpoints.ts';
