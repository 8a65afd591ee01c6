// A RouterConfig for tests, built in code around fake upstreams (no YAML): each model's endpoints
// name a provider and an upstream model; timeouts and routing take small test-friendly defaults
// unless given.
import type { ModelPricing } from '@weft/core';
import type { EndpointConfig, ProviderConfig, ProviderTimeouts, RouterConfig, RouterModelConfig, RoutingPolicy } from '../types.ts';

export const FREE_PRICING: ModelPricing = { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' };

export interface TestProvider {
  id: string;
  base_url: string;
  api_key_env?: string;
  headers?: Record<string, string>;
  timeouts?: Partial<ProviderTimeouts>;
}

export interface TestModel {
  id: string;
  endpoints: { provider: string; model?: string; pricing?: Partial<ModelPricing> }[];
}

export interface TestConfigInput {
  providers: TestProvider[];
  models: TestModel[];
  routing?: Partial<RoutingPolicy>;
}

export const TEST_TIMEOUTS: ProviderTimeouts = { connect_ms: 2_000, first_byte_ms: 5_000, idle_ms: 5_000, total_ms: 30_000 };

export const TEST_ROUTING: RoutingPolicy = {
  retries: 1,
  backoff_ms: 10,
  max_backoff_ms: 100,
  max_retry_after_ms: 10_000,
  allowed_fails: 3,
  window_ms: 60_000,
  cooldown_ms: 5_000,
  always_include_usage: false,
};

export function testRouterConfig(input: TestConfigInput): RouterConfig {
  const providers: ProviderConfig[] = input.providers.map((p) => ({
    id: p.id,
    base_url: p.base_url,
    ...(p.api_key_env === undefined ? {} : { api_key_env: p.api_key_env }),
    headers: p.headers ?? {},
    timeouts: { ...TEST_TIMEOUTS, ...p.timeouts },
  }));
  const models: RouterModelConfig[] = input.models.map((m) => {
    const endpoints: EndpointConfig[] = m.endpoints.map((e) => ({
      provider: e.provider,
      model: e.model ?? 'upstream-model',
      pricing: { ...FREE_PRICING, ...e.pricing },
      datacenters: [],
    }));
    return {
      id: m.id,
      endpoints,
      entry: {
        id: m.id,
        name: m.id,
        created: 0,
        input_modalities: ['text'],
        output_modalities: ['text'],
        context_length: 8192,
        max_output_length: 4096,
        pricing: endpoints[0]?.pricing ?? FREE_PRICING,
        supported_sampling_parameters: [],
        supported_features: [],
        datacenters: [],
      },
    };
  });
  return {
    source: 'test',
    providers,
    models,
    routing: { ...TEST_ROUTING, ...input.routing },
    limits: { per_key: {}, per_project: {} },
    projects: {},
  };
}
