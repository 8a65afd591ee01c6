export { parseRouterConfig } from './parse-router-config.ts';
export { loadRouterConfig } from './load-router-config.ts';
export { RouterConfigError } from './router-config-error.ts';
export { DEFAULT_ROUTING, DEFAULT_TIMEOUTS } from './defaults.ts';
