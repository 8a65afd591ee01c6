// The router's metrics as GET /metrics shows them: attempts by model, provider and outcome, their
// latency and time to first token, tokens by kind and the exact sum of costs, fed through the
// RouterObserver the server gives the router.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadCatalogue } from '@weft/core';
import { createStore, migrateToLatest, openDatabase } from '@weft/store';
import type { PricedUsage, Served } from '@weft/router';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createAuthenticator } from '../src/auth/index.ts';
import { createMetrics, type Metrics } from '../src/http/metrics.ts';

/** The value of one sample of the exposition text (labels given in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v) && Object.keys(have).length === Object.keys(labels).length) {
      return Number(m[3]);
    }
  }
  return undefined;
}

const pricing = { prompt: '0.0000001', completion: '0.0000004', request: '0', image: '0', input_cache_read: '0' };
const served = (provider: string): Served => ({ model: 'chat-small', provider, upstream_model: 'gpt-4o-mini', pricing });
const priced = (prompt: number, completion: number, cost: string): PricedUsage => ({
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  cost_usd: cost,
});

describe('router metrics on /metrics', () => {
  let url: string;
  let metrics: Metrics;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const db = await openDatabase('sqlite::memory:');
    await migrateToLatest(db);
    const catalogue = await loadCatalogue();
    metrics = createMetrics(db);
    const app = await createApp(
      {
        store: createStore({ db, catalogue }),
        auth: createAuthenticator({ users: [] }),
        catalogue,
        version: 'test',
        lifecycle: { phase: 'serving' },
        metrics,
        router: () => undefined,
        recorder: { start: () => ({ callId: '', traceId: '', finish: () => {} }), close: async () => {} },
      },
      { bodyLimit: 1 << 20, logBodyLimit: 1 << 20, validateResponses: true, logger: pino({ level: 'silent' }), requestTimeoutMs: 10_000 },
    );
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    };
  });
  afterAll(async () => close?.());
  const scrape = async () => {
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  it('counts attempts by outcome, times them and their first token', async () => {
    const router = metrics.router;
    router.attempt({ model: 'chat-small', provider: 'openai', outcome: 'status_429', status: 429, latency_ms: 120 });
    router.attempt({ model: 'chat-small', provider: 'vllm', outcome: 'ok', status: 200, latency_ms: 1800, ttft_ms: 300 });
    router.attempt({ model: 'chat-small', provider: 'vllm', outcome: 'ok', status: 200, latency_ms: 700, ttft_ms: 40 });
    const text = await scrape();
    const labels = { model: 'chat-small', provider: 'vllm', outcome: 'ok' };
    expect(sample(text, 'weft_router_upstream_requests_total', labels)).toBe(2);
    expect(sample(text, 'weft_router_upstream_requests_total', { ...labels, provider: 'openai', outcome: 'status_429' })).toBe(1);
    expect(sample(text, 'weft_router_upstream_duration_seconds_count', labels)).toBe(2);
    expect(sample(text, 'weft_router_upstream_duration_seconds_sum', labels)).toBeCloseTo(2.5, 9);
    expect(sample(text, 'weft_router_upstream_duration_seconds_bucket', { ...labels, le: '1' })).toBe(1);
    expect(sample(text, 'weft_router_upstream_duration_seconds_bucket', { ...labels, le: '2.5' })).toBe(2);
    const first = { model: 'chat-small', provider: 'vllm' };
    expect(sample(text, 'weft_router_time_to_first_token_seconds_count', first)).toBe(2);
    expect(sample(text, 'weft_router_time_to_first_token_seconds_bucket', { ...first, le: '0.05' })).toBe(1);
    // A failed attempt has no first token.
    expect(sample(text, 'weft_router_time_to_first_token_seconds_count', { ...first, provider: 'openai' })).toBeUndefined();
  });

  it('adds tokens by kind and costs exactly', async () => {
    // Ten answers of 0.1 USD: added as floats they would make 0.9999999999999999.
    for (let i = 0; i < 10; i++) metrics.router.priced(served('vllm'), priced(1000, 250, '0.1'));
    metrics.router.priced(served('openai'), priced(7, 3, '0.0000019'));
    const text = await scrape();
    const vllm = { model: 'chat-small', provider: 'vllm' };
    expect(sample(text, 'weft_router_tokens_total', { ...vllm, kind: 'prompt' })).toBe(10_000);
    expect(sample(text, 'weft_router_tokens_total', { ...vllm, kind: 'completion' })).toBe(2_500);
    expect(sample(text, 'weft_router_cost_usd_total', vllm)).toBe(1);
    expect(sample(text, 'weft_router_cost_usd_total', { ...vllm, provider: 'openai' })).toBe(0.0000019);
    // Scraped twice, the same totals (the exact sum is not added again).
    expect(sample(await scrape(), 'weft_router_cost_usd_total', vllm)).toBe(1);
  });
});
