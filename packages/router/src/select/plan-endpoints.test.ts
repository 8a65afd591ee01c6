import { createCatalogue } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { parseRouterConfig } from '../config/parse-router-config.ts';
import { HealthBook } from '../health/health-book.ts';
import { RouterError } from '../router-error.ts';
import { planEndpoints, type PlanRequest } from './plan-endpoints.ts';

const config = parseRouterConfig(
  `providers:
  a: { base_url: http://127.0.0.1:1/v1 }
  b: { base_url: http://127.0.0.1:2/v1 }
  c: { base_url: http://127.0.0.1:3/v1 }
models:
  - id: m1
    context_length: 1000
    endpoints:
      - { provider: a, model: a-m1, pricing: { prompt: 0.000001, completion: 0.000002 } }
      - { provider: b, model: b-m1, pricing: { prompt: 0.0000005, completion: 0.0000005 } }
      - { provider: c, model: c-m1, pricing: { prompt: 0.000003, completion: 0.000001, request: 0.01, image: 0.002 } }
  - id: m2
    context_length: 1000
    endpoints:
      - { provider: b, model: b-m2, pricing: {} }
      - { provider: c, model: c-m2, pricing: {} }
`,
  'plan.yaml',
  createCatalogue([]),
);
const POLICY = { allowed_fails: 0, window_ms: 1000, cooldown_ms: 100 };

/** `model/provider` of each planned endpoint. */
const plan = (req: Partial<PlanRequest>, health = new HealthBook(POLICY), now = 0) =>
  planEndpoints(config, { model: 'm1', ...req }, health, now).map((p) => `${p.model.id}/${p.provider.id}`);

function refusal(req: Partial<PlanRequest>): RouterError {
  try {
    plan(req);
  } catch (error) {
    expect(error).toBeInstanceOf(RouterError);
    return error as RouterError;
  }
  throw new Error('expected planEndpoints to throw');
}

describe('planEndpoints', () => {
  it("plans the model's endpoints in the file's order, keyed for the HealthBook", () => {
    const planned = planEndpoints(config, { model: 'm1' }, new HealthBook(POLICY), 0);
    expect(planned.map((p) => [p.model.id, p.provider.id, p.endpoint.model, p.key])).toEqual([
      ['m1', 'a', 'a-m1', 'm1\u0000a\u0000a-m1'],
      ['m1', 'b', 'b-m1', 'm1\u0000b\u0000b-m1'],
      ['m1', 'c', 'c-m1', 'm1\u0000c\u0000c-m1'],
    ]);
    expect(planned[0]!.provider).toBe(config.providers[0]);
  });

  it('adds the `models` fallbacks after, each model once', () => {
    expect(plan({ models: ['m2', 'm1', 'm2'] })).toEqual(['m1/a', 'm1/b', 'm1/c', 'm2/b', 'm2/c']);
  });

  it('refuses an unknown model with 404 model_not_found naming the parameter', () => {
    expect(refusal({ model: 'nope' }).toBody()).toEqual({
      status: 404,
      type: 'invalid_request_error',
      code: 'model_not_found',
      param: 'model',
      message: 'The model "nope" does not exist on this router (GET /inference/router/gateway/models lists them)',
    });
    expect(refusal({ models: ['m2', 'gone'] }).param).toBe('models[1]');
  });

  it('only keeps, ignore drops providers; empty lists mean unset', () => {
    expect(plan({ provider: { only: ['c', 'a'] } })).toEqual(['m1/a', 'm1/c']);
    expect(plan({ provider: { ignore: ['a'] }, models: ['m2'] })).toEqual(['m1/b', 'm1/c', 'm2/b', 'm2/c']);
    expect(plan({ provider: { only: [], ignore: [], order: [] } })).toEqual(['m1/a', 'm1/b', 'm1/c']);
  });

  it('refuses a provider name the file does not declare with 400 naming it', () => {
    const error = refusal({ provider: { order: ['a', 'openai'] } });
    expect(error.toBody()).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'provider.order[1]' });
    expect(error.message).toBe('"openai" is not a provider of this router (a, b, c)');
    expect(refusal({ provider: { ignore: ['x'] } }).param).toBe('provider.ignore[0]');
  });

  it("order puts its providers first, then the rest; with allow_fallbacks false only order's providers", () => {
    expect(plan({ provider: { order: ['c', 'b'] } })).toEqual(['m1/c', 'm1/b', 'm1/a']);
    expect(plan({ provider: { order: ['c', 'b'], allow_fallbacks: false } })).toEqual(['m1/c', 'm1/b']);
    expect(plan({ provider: { order: ['c'], allow_fallbacks: false }, models: ['m2'] })).toEqual(['m1/c', 'm2/c']);
  });

  it('allow_fallbacks false without order keeps only the first choice of each model (the first in rotation)', () => {
    expect(plan({ provider: { allow_fallbacks: false } })).toEqual(['m1/a']);
    expect(plan({ provider: { allow_fallbacks: false, only: ['b', 'c'] }, models: ['m2'] })).toEqual(['m1/b', 'm2/b']);
    const health = new HealthBook(POLICY);
    health.record('m1\u0000a\u0000a-m1', 'status_429', 5, undefined, 0);
    expect(plan({ provider: { allow_fallbacks: false } }, health, 1)).toEqual(['m1/b']);
  });

  it('sort by price orders by prompt + completion price, the file order breaking ties', () => {
    expect(plan({ provider: { sort: 'price' } })).toEqual(['m1/b', 'm1/a', 'm1/c']);
    expect(plan({ provider: { sort: 'price', order: ['c'] } })).toEqual(['m1/c', 'm1/b', 'm1/a']);
  });

  it('sort by latency or throughput uses the medians measured here, unmeasured endpoints last', () => {
    const health = new HealthBook(POLICY);
    health.record('m1\u0000c\u0000c-m1', 'ok', 50, 10, 0, { completion_tokens: 10 }); // 250 tokens/s
    health.record('m1\u0000b\u0000b-m1', 'ok', 80, 10, 0, { completion_tokens: 70 }); // 1000 tokens/s
    expect(plan({ provider: { sort: 'latency' } }, health)).toEqual(['m1/c', 'm1/b', 'm1/a']);
    expect(plan({ provider: { sort: 'throughput' } }, health)).toEqual(['m1/b', 'm1/c', 'm1/a']);
  });

  it('max_price drops endpoints priced above it (USD per million tokens; request and image per unit), exactly', () => {
    expect(plan({ provider: { max_price: { prompt: 1 } } })).toEqual(['m1/a', 'm1/b']); // a costs exactly 1 per million
    expect(plan({ provider: { max_price: { prompt: 0.9999999 } } })).toEqual(['m1/b']);
    expect(plan({ provider: { max_price: { completion: 1.0 } } })).toEqual(['m1/b', 'm1/c']);
    expect(plan({ provider: { max_price: { request: 0.001 } } })).toEqual(['m1/a', 'm1/b']);
    expect(plan({ provider: { max_price: { image: 0.0019 } } })).toEqual(['m1/a', 'm1/b']);
    expect(plan({ provider: { max_price: { prompt: 0.5 } }, models: ['m2'] })).toEqual(['m1/b', 'm2/b', 'm2/c']);
    expect(refusal({ provider: { max_price: { prompt: -1 } } }).param).toBe('provider.max_price.prompt');
  });

  it('answers 503 no_endpoint when the preferences leave nothing', () => {
    expect(refusal({ provider: { max_price: { prompt: 0.1 } } }).toBody()).toEqual({
      status: 503,
      type: 'service_unavailable',
      code: 'no_endpoint',
      param: null,
      message: 'No endpoint of "m1" meets the request\'s provider preferences (max_price)',
    });
    expect(refusal({ model: 'm2', provider: { only: ['a'] } }).code).toBe('no_endpoint');
  });

  it('skips endpoints cooling down while others remain, plans them all (soonest back first) when none does', () => {
    const health = new HealthBook(POLICY);
    health.record('m1\u0000a\u0000a-m1', 'status_429', 5, undefined, 0); // back at 100
    expect(plan({}, health, 10)).toEqual(['m1/b', 'm1/c']);
    health.record('m1\u0000c\u0000c-m1', 'status_429', 5, undefined, 5); // back at 105
    health.record('m1\u0000b\u0000b-m1', 'status_429', 5, undefined, 1); // back at 101
    expect(plan({}, health, 10)).toEqual(['m1/a', 'm1/b', 'm1/c']);
    health.record('m1\u0000a\u0000a-m1', 'status_429', 5, undefined, 20); // back at 120
    expect(plan({}, health, 30)).toEqual(['m1/b', 'm1/c', 'm1/a']);
    // A fallback model in rotation is preferred to cooling endpoints of the requested one.
    expect(plan({ models: ['m2'] }, health, 30)).toEqual(['m2/b', 'm2/c']);
  });

  it('lets one request probe an endpoint whose cooldown ended; the others skip it until it reports', () => {
    const health = new HealthBook(POLICY);
    health.record('m1\u0000a\u0000a-m1', 'status_5xx', 5, undefined, 0); // back at 100
    expect(plan({}, health, 100)).toEqual(['m1/a', 'm1/b', 'm1/c']); // the probe
    expect(plan({}, health, 101)).toEqual(['m1/b', 'm1/c']);
    health.record('m1\u0000a\u0000a-m1', 'ok', 5, undefined, 102);
    expect(plan({}, health, 103)).toEqual(['m1/a', 'm1/b', 'm1/c']);
  });
});
