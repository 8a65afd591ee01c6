// The router: endpoint plans from the config, the upstream calls through one connection pool per
// provider, the stream relay, health per endpoint. `now`, `random` and `sleep` are injectable so
// tests of backoff and cooldowns do not wait for real.
import { chatJson } from './chat-json.ts';
import { chatStream } from './chat-stream.ts';
import { embeddings } from './embeddings.ts';
import { newHealthBook } from './relay-deps.ts';
import type { Router, RouterConfig, RouterObserver } from './types.ts';
import { ProviderAgents } from './upstream/provider-agents.ts';
import type { RelayContext } from './upstream/try-endpoints.ts';

export interface CreateRouterOptions {
  config: RouterConfig;
  /** Where provider keys are read (`api_key_env`); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  observer?: RouterObserver;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** In [0, 1); default `Math.random` (backoff jitter). */
  random?: () => number;
  /** Waits `ms` or until `signal` aborts, whichever first; default a timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const timerSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

export function createRouter(options: CreateRouterOptions): Router {
  let config = options.config;
  const agents = new ProviderAgents();
  const health = newHealthBook(config);
  const now = options.now ?? Date.now;
  // Each request reads the config once at its start: a reload never changes a request in flight.
  const context = (): RelayContext => ({
    config,
    health,
    agents,
    observer: options.observer,
    env: options.env ?? process.env,
    now,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? timerSleep,
  });
  return {
    get config() {
      return config;
    },
    models: () => config.models.map((m) => m.entry),
    endpoints: () => health.snapshot(config, now()),
    chat: (request, { signal }) =>
      request.stream === true ? chatStream(context(), request, signal) : chatJson(context(), request, signal),
    embeddings: (request, { signal }) => embeddings(context(), request, signal),
    reload: (next) => {
      config = next;
      agents.retain(next.providers);
      health.setPolicy(next.routing);
      health.retain(next);
    },
    close: () => agents.close(),
  };
}
