// @weft/router: provider configuration, endpoint selection, the upstream client and the stream
// relay. Used by apps/server; knows nothing of HTTP serving or the store.
export type * from './types.ts';
export { RouterError, isRouterError } from './router-error.ts';
export * from './config/index.ts';
export * from './cost/index.ts';
export * from './select/index.ts';
export * from './health/index.ts';
export { OPENAI_ERROR_TYPES, modelNotFound, invalidParam, noEndpoint } from './openai-errors.ts';
export { createRouter, type CreateRouterOptions } from './create-router.ts';
