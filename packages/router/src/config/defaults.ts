import type { ProviderTimeouts, RoutingPolicy } from '../types.ts';

/**
 * Timeouts a provider gets for what its entry leaves out. first_byte_ms covers a whole
 * non-streamed answer, so it is generous; total_ms matches the `openai` client's own default.
 */
export const DEFAULT_TIMEOUTS: Readonly<ProviderTimeouts> = Object.freeze({
  connect_ms: 10_000,
  first_byte_ms: 120_000,
  idle_ms: 60_000,
  total_ms: 600_000,
});

/** Routing for what the file's `routing` leaves out; the cooldown figures are LiteLLM's defaults. */
export const DEFAULT_ROUTING: Readonly<RoutingPolicy> = Object.freeze({
  retries: 1,
  backoff_ms: 250,
  max_backoff_ms: 4_000,
  max_retry_after_ms: 10_000,
  allowed_fails: 3,
  window_ms: 60_000,
  cooldown_ms: 5_000,
  always_include_usage: false,
});

/** Sampling parameters assumed of an OpenAI-compatible model the catalogue does not know. */
export const DEFAULT_SAMPLING = Object.freeze(['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'stop', 'seed'] as const);
