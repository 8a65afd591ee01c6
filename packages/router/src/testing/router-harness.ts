// The router's own tests: two fake upstreams (`a`, `b`) behind one router model `m` (a first),
// a key in a private env, an observer that keeps what it was told, and a `sleep` that records the
// waits and returns at once (backoff and Retry-After are asserted, never waited for).
import { createRouter } from '../create-router.ts';
import type { Attempt, PricedUsage, Router, RouterConfig, Served } from '../types.ts';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.ts';
import { testRouterConfig, type TestConfigInput } from './test-config.ts';

export const KEY_A = 'sk-test-a-0123456789abcdef';
export const KEY_B = 'sk-test-b-fedcba9876543210';

export interface Harness {
  a: FakeUpstream;
  b: FakeUpstream;
  router: Router;
  config: RouterConfig;
  attempts: (Attempt & { ttft_ms?: number })[];
  priced: { served: Served; priced: PricedUsage }[];
  sleeps: number[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  providers?: { a?: Partial<TestConfigInput['providers'][number]>; b?: Partial<TestConfigInput['providers'][number]> };
  routing?: TestConfigInput['routing'];
  pricing?: TestConfigInput['models'][number]['endpoints'][number]['pricing'];
  now?: () => number;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const [a, b] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = testRouterConfig({
    providers: [
      { id: 'a', base_url: a.base_url, api_key_env: 'KEY_A', ...options.providers?.a },
      { id: 'b', base_url: b.base_url, api_key_env: 'KEY_B', ...options.providers?.b },
    ],
    models: [
      {
        id: 'm',
        endpoints: [
          { provider: 'a', model: 'a-model', ...(options.pricing ? { pricing: options.pricing } : {}) },
          { provider: 'b', model: 'b-model', ...(options.pricing ? { pricing: options.pricing } : {}) },
        ],
      },
      { id: 'e', endpoints: [{ provider: 'a', model: 'a-embedder', ...(options.pricing ? { pricing: options.pricing } : {}) }] },
    ],
    ...(options.routing ? { routing: options.routing } : {}),
  });
  const attempts: Harness['attempts'] = [];
  const priced: Harness['priced'] = [];
  const sleeps: number[] = [];
  const router = createRouter({
    config,
    env: { KEY_A, KEY_B },
    observer: { attempt: (x) => void attempts.push(x), priced: (served, p) => void priced.push({ served, priced: p }) },
    random: () => 0.5,
    sleep: async (ms) => void sleeps.push(ms),
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    a,
    b,
    router,
    config,
    attempts,
    priced,
    sleeps,
    close: async () => {
      await router.close();
      await Promise.all([a.close(), b.close()]);
    },
  };
}

/** Collects every event of a stream. */
export async function drain(events: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of events) out.push(e);
  return out;
}
