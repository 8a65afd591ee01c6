// Cases of the service operations: liveness, health, readiness, metrics, server info, router model list.
import type { OperationCase } from './case-types.ts';

export const serviceCases = {
  live: {
    tenancy: 'none',
    request: (api, _c, extra) => api.GET('/live', { ...extra }),
    invalid: [],
  },

  health: {
    tenancy: 'none',
    request: (api, _c, extra) => api.GET('/health', { ...extra }),
    invalid: [],
  },

  ready: {
    tenancy: 'none',
    request: (api, _c, extra) => api.GET('/ready', { ...extra }),
    invalid: [],
  },

  metrics: {
    tenancy: 'none',
    request: (api, _c, extra) => api.GET('/metrics', { ...extra }),
    invalid: [],
  },

  serverInfo: {
    tenancy: 'none',
    request: (api, _c, extra) => api.GET('/server_info', { ...extra }),
    invalid: [],
  },

  routerModelsList: {
    tenancy: 'none',
    request: (api, _c, extra) => api.GET('/inference/router/gateway/models', { ...extra }),
    invalid: [],
    noInvalidRequest: 'its only input, the optional If-None-Match header, accepts any string',
  },
} satisfies Record<string, OperationCase>;
