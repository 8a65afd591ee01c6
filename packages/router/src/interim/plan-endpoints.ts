// Stand-in for h-router-config's planEndpoints (same signature) until that branch is merged:
// configured order, then the `models` fallbacks; endpoints cooling down go last.
import { RouterError } from '../router-error.ts';
import type { EndpointConfig, ProviderConfig, ProviderPreferences, RouterConfig, RouterModelConfig } from '../types.ts';
import type { HealthBook } from './health-book.ts';

export interface PlannedEndpoint {
  model: RouterModelConfig;
  endpoint: EndpointConfig;
  provider: ProviderConfig;
  key: string;
}

export function planEndpoints(
  config: RouterConfig,
  req: { model: string; models?: string[]; provider?: ProviderPreferences },
  health: HealthBook,
  now: number,
): PlannedEndpoint[] {
  const out: PlannedEndpoint[] = [];
  for (const id of [req.model, ...(req.models ?? [])]) {
    const model = config.models.find((m) => m.id === id);
    if (model === undefined) {
      if (id === req.model)
        throw new RouterError({
          status: 404,
          type: 'invalid_request_error',
          code: 'model_not_found',
          param: 'model',
          message: `No model ${id}`,
        });
      continue;
    }
    for (const endpoint of model.endpoints) {
      const provider = config.providers.find((p) => p.id === endpoint.provider);
      if (provider === undefined) continue;
      out.push({ model, endpoint, provider, key: `${model.id}\u0000${provider.id}\u0000${endpoint.model}` });
    }
  }
  const cooling = (p: PlannedEndpoint) => (health.coolingDownUntil(p.key, now) === undefined ? 0 : 1);
  return out
    .map((p, i) => ({ p, i }))
    .sort((a, b) => cooling(a.p) - cooling(b.p) || a.i - b.i)
    .map(({ p }) => p);
}
