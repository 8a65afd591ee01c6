// The router's metrics on /metrics, fed by the router through its RouterObserver: every attempt
// sent to a provider by router model, provider and outcome (`ok`, `connect`, `timeout`,
// `status_429`, `status_5xx`, `status_4xx`, `invalid_response`, `aborted`), its latency and time
// to first token, and the tokens and cost of priced answers. Label values come from the router
// file (model ids, provider ids) and the router's own outcome names, so their number is bounded.
import { add, formatDecimal, parseDecimal, ZERO, type Decimal } from '@weft/core';
import type { RouterObserver } from '@weft/router';
import { Counter, Histogram, type Registry } from 'prom-client';

export function createRouterMetrics(registry: Registry): RouterObserver {
  const registers = [registry];
  const attempts = new Counter({
    name: 'weft_router_upstream_requests_total',
    help: 'Requests sent to providers (each attempt, retries and fallbacks included), by router model, provider and outcome.',
    labelNames: ['model', 'provider', 'outcome'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'weft_router_upstream_duration_seconds',
    help: "Time of each attempt, from sending the request to the answer's end (or its failure), by router model, provider and outcome.",
    labelNames: ['model', 'provider', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300],
    registers,
  });
  const ttft = new Histogram({
    name: 'weft_router_time_to_first_token_seconds',
    help: 'Time from sending a request to the first chunk of its answer, by router model and provider.',
    labelNames: ['model', 'provider'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers,
  });
  const tokens = new Counter({
    name: 'weft_router_tokens_total',
    help: 'Tokens of priced answers as the providers counted them, by router model, provider and kind (prompt, completion).',
    labelNames: ['model', 'provider', 'kind'] as const,
    registers,
  });
  // Summed exactly and turned into a float only when scraped: adding floats request after request
  // would drift from the sum of the answers' costs.
  const spent = new Map<string, { model: string; provider: string; usd: Decimal }>();
  new Counter({
    name: 'weft_router_cost_usd_total',
    help: 'USD of priced answers, computed exactly from the serving endpoint prices, by router model and provider.',
    labelNames: ['model', 'provider'] as const,
    registers,
    collect() {
      this.reset();
      for (const { model, provider, usd } of spent.values()) this.inc({ model, provider }, Number(formatDecimal(usd)));
    },
  });

  return {
    attempt(a) {
      attempts.inc({ model: a.model, provider: a.provider, outcome: a.outcome });
      latency.observe({ model: a.model, provider: a.provider, outcome: a.outcome }, a.latency_ms / 1000);
      if (a.ttft_ms !== undefined) ttft.observe({ model: a.model, provider: a.provider }, a.ttft_ms / 1000);
    },
    priced(served, priced) {
      const labels = { model: served.model, provider: served.provider };
      tokens.inc({ ...labels, kind: 'prompt' }, priced.usage.prompt_tokens);
      tokens.inc({ ...labels, kind: 'completion' }, priced.usage.completion_tokens);
      const key = `${served.model}\u0000${served.provider}`;
      const entry = spent.get(key) ?? { ...labels, usd: ZERO };
      entry.usd = add(entry.usd, parseDecimal(priced.cost_usd));
      spent.set(key, entry);
    },
  };
}
