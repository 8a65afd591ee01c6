import { add, parseDecimal } from '@weft/core';
import { endpointKey } from '../health/endpoint-key.ts';
import type { HealthBook } from '../health/health-book.ts';
import { invalidParam, modelNotFound, noEndpoint } from '../openai-errors.ts';
import type { EndpointConfig, ProviderConfig, ProviderPreferences, RouterConfig, RouterModelConfig, Served } from '../types.ts';
import { compare, priceAbove, readMaxPrice, type PriceLimit } from './max-price.ts';

/** One endpoint to try, in the order the router should try them. */
export interface PlannedEndpoint {
  model: RouterModelConfig;
  endpoint: EndpointConfig;
  provider: ProviderConfig;
  /** endpointKey(model.id, provider id, upstream model): the HealthBook's key. */
  key: string;
}

/** What served a request, as answers, records and metrics name it. */
export function servedBy(planned: PlannedEndpoint): Served {
  return {
    model: planned.model.id,
    provider: planned.provider.id,
    upstream_model: planned.endpoint.model,
    pricing: planned.endpoint.pricing,
  };
}

/** The parts of a chat or embeddings request that choose endpoints. */
export interface PlanRequest {
  model: string;
  /** OpenRouter's fallback models, tried after `model`'s endpoints. */
  models?: readonly string[] | null;
  provider?: ProviderPreferences | null;
}

const SORTS: ReadonlySet<string> = new Set(['price', 'latency', 'throughput']);

interface Indexes {
  providers: ReadonlyMap<string, ProviderConfig>;
  models: ReadonlyMap<string, RouterModelConfig>;
}
/** Built once per config (a reload brings a new object), not on every request. */
const indexes = new WeakMap<RouterConfig, Indexes>();

function indexesOf(config: RouterConfig): Indexes {
  let found = indexes.get(config);
  if (!found) {
    found = { providers: new Map(config.providers.map((p) => [p.id, p])), models: new Map(config.models.map((m) => [m.id, m])) };
    indexes.set(config, found);
  }
  return found;
}

/**
 * The endpoints to try for a request, first choice first, with OpenRouter's semantics:
 * - `model`, then each of `models` (duplicates once), each model's endpoints in the file's order;
 * - `only` keeps, `ignore` drops the named providers; `max_price` drops endpoints priced above it
 *   (prompt and completion in USD per million tokens, request and image per unit);
 * - `sort` orders by price (prompt + completion), latency or throughput (medians measured here;
 *   endpoints not yet measured go after measured ones), then `order`'s providers come first, in
 *   its order;
 * - `allow_fallbacks: false` keeps only `order`'s providers, or without `order` only the first
 *   choice of each model;
 * - endpoints cooling down are skipped while any other remains; when all are cooling down they are
 *   all planned, the soonest back first. An endpoint whose cooldown ended is planned as a probe.
 * Empty `order`, `only` and `ignore` lists mean "not set" (SDKs send them as defaults).
 * Throws RouterError 404 `model_not_found`, 400 for a provider name the file does not declare or a
 * bad preference, 503 `no_endpoint` when the preferences leave nothing to try.
 */
export function planEndpoints(config: RouterConfig, req: PlanRequest, health: HealthBook, now: number): PlannedEndpoint[] {
  const prefs = req.provider ?? {};
  const { providers, models: byId } = indexesOf(config);
  const order = namedProviders(prefs.order, 'order', providers);
  const only = namedProviders(prefs.only, 'only', providers);
  const ignore = namedProviders(prefs.ignore, 'ignore', providers);
  if (prefs.sort !== undefined && !SORTS.has(prefs.sort))
    throw invalidParam('provider.sort', 'provider.sort must be price, latency or throughput');
  const limit: PriceLimit | undefined = prefs.max_price ? readMaxPrice(prefs.max_price) : undefined;
  const models = requestedModels(byId, req);

  const planned: PlannedEndpoint[] = [];
  for (const model of models) {
    let endpoints = model.endpoints.filter(
      (e) =>
        (only.length === 0 || only.includes(e.provider)) &&
        !ignore.includes(e.provider) &&
        (limit === undefined || priceAbove(e.pricing, limit) === undefined),
    );
    endpoints = arrange(endpoints, model, prefs.sort, order, health);
    let choices = endpoints.map((endpoint) => ({
      model,
      endpoint,
      provider: providers.get(endpoint.provider)!,
      key: endpointKey(model.id, endpoint.provider, endpoint.model),
    }));
    if (prefs.allow_fallbacks === false) {
      if (order.length > 0) choices = choices.filter((c) => order.includes(c.endpoint.provider));
      else {
        const primary = choices.find((c) => health.coolingDownUntil(c.key, now) === undefined) ?? choices[0];
        choices = primary ? [primary] : [];
      }
    }
    planned.push(...choices);
  }

  if (planned.length === 0) {
    const used = [
      only.length > 0 && 'only',
      ignore.length > 0 && 'ignore',
      limit !== undefined && 'max_price',
      prefs.allow_fallbacks === false && order.length > 0 && 'order with allow_fallbacks false',
    ].filter(Boolean);
    throw noEndpoint(
      `No endpoint of ${models.map((m) => JSON.stringify(m.id)).join(', ')} meets the request's provider preferences (${used.join(', ')})`,
    );
  }

  const inRotation = planned.filter((p) => health.coolingDownUntil(p.key, now) === undefined);
  if (inRotation.length === 0) {
    // Everything is cooling down: try them anyway rather than refuse, the soonest back first.
    const until = (p: PlannedEndpoint) => health.coolingDownUntil(p.key, now) ?? now;
    return planned
      .map((p, i) => ({ p, i }))
      .sort((a, b) => until(a.p) - until(b.p) || a.i - b.i)
      .map(({ p }) => p);
  }
  for (const p of inRotation) health.claimProbe(p.key, now);
  return inRotation;
}

/** `model` then `models`, each once; 404 naming the parameter of the first unknown one. */
function requestedModels(byId: ReadonlyMap<string, RouterModelConfig>, req: PlanRequest): RouterModelConfig[] {
  const wanted: { id: string; param: string }[] = [{ id: req.model, param: 'model' }];
  (req.models ?? []).forEach((id, i) => wanted.push({ id, param: `models[${i}]` }));
  const out: RouterModelConfig[] = [];
  for (const { id, param } of wanted) {
    const model = byId.get(id);
    if (!model) throw modelNotFound(id, param);
    if (!out.includes(model)) out.push(model);
  }
  return out;
}

function namedProviders(
  list: readonly string[] | undefined,
  field: string,
  providers: ReadonlyMap<string, ProviderConfig>,
): readonly string[] {
  if (list === undefined) return [];
  list.forEach((name, i) => {
    if (!providers.has(name)) {
      throw invalidParam(
        `provider.${field}[${i}]`,
        `${JSON.stringify(name)} is not a provider of this router (${[...providers.keys()].join(', ')})`,
      );
    }
  });
  return list;
}

/** The model's endpoints sorted by `sort` (stable: the file's order breaks ties), then `order`'s providers first. */
function arrange(
  endpoints: EndpointConfig[],
  model: RouterModelConfig,
  sort: ProviderPreferences['sort'],
  order: readonly string[],
  health: HealthBook,
): EndpointConfig[] {
  let out = endpoints;
  if (sort === 'price') {
    const price = (e: EndpointConfig) => add(parseDecimal(e.pricing.prompt), parseDecimal(e.pricing.completion));
    out = [...out].sort((a, b) => compare(price(a), price(b)));
  } else if (sort === 'latency' || sort === 'throughput') {
    const measure = (e: EndpointConfig) => {
      const stats = health.stats(endpointKey(model.id, e.provider, e.model));
      return sort === 'latency' ? stats.latency_ms_p50 : stats.throughput_p50 === null ? null : -stats.throughput_p50;
    };
    out = [...out].sort((a, b) => {
      const [x, y] = [measure(a), measure(b)];
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      return x - y;
    });
  }
  if (order.length > 0) {
    const rank = (e: EndpointConfig) => {
      const i = order.indexOf(e.provider);
      return i === -1 ? order.length : i;
    };
    out = [...out].sort((a, b) => rank(a) - rank(b));
  }
  return out;
}
