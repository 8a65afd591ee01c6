export { HealthBook, type HealthPolicy, type EndpointStats, type AttemptDetail } from './health-book.ts';
export { endpointKey } from './endpoint-key.ts';
export { SampleRing } from './sample-ring.ts';
