// @weft/router: provider configuration, endpoint selection, the upstream client and the stream
// relay. Used by apps/server; knows nothing of HTTP serving or the store.
export type * from './types.ts';
export { RouterError, isRouterError } from './router-error.ts';
export * from './limits/index.ts';
