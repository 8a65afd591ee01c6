// The router's public shapes. The server and the router package meet here: the server validates the
// request against the spec, authenticates, and records calls; the router chooses endpoints, talks to
// the upstreams, relays streams and prices the usage. Wire shapes are the spec's own types.
import type { ModelEntry, ModelPricing } from '@weft/core';
import type { components } from '@weft/types';

type Schemas = components['schemas'];
export type ChatCompletionReq = Schemas['ChatCompletionReq'];
export type ChatCompletion = Schemas['ChatCompletion'];
export type ChatCompletionChunk = Schemas['ChatCompletionChunk'];
export type EmbeddingsReq = Schemas['EmbeddingsReq'];
export type EmbeddingsRes = Schemas['EmbeddingsRes'];
export type Usage = Schemas['Usage'];
export type ProviderPreferences = Schemas['ProviderPreferences'];
export type RouterEndpointHealth = Schemas['RouterEndpoint'];

/** Timeouts of one provider, milliseconds. */
export interface ProviderTimeouts {
  /** TCP (and TLS) connect. */
  connect_ms: number;
  /** From sending the request to the response's headers (non-streamed: to the whole body). */
  first_byte_ms: number;
  /** Longest gap between two chunks of a streamed answer. */
  idle_ms: number;
  /** The whole attempt. */
  total_ms: number;
}

/** An OpenAI-compatible provider, as the router file declares it. */
export interface ProviderConfig {
  id: string;
  /** Up to and including the version segment, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  base_url: string;
  /** The environment variable holding the key (never the key itself); unset: no Authorization header. */
  api_key_env?: string;
  /** Extra headers sent upstream (not secrets: those go in api_key_env). */
  headers: Record<string, string>;
  timeouts: ProviderTimeouts;
}

/** One provider endpoint of a router model. */
export interface EndpointConfig {
  provider: string;
  /** The model name the provider knows. */
  model: string;
  pricing: ModelPricing;
  context_length?: number;
  /** ISO 3166-1 alpha-2 codes. */
  datacenters: string[];
}

export interface RouterModelConfig {
  /** The router model id clients send as `model`. */
  id: string;
  /** Served by GET /models; fields the file leaves out come from the shipped catalogue's entry of the same id, else defaults. */
  entry: ModelEntry;
  /** In routing order. */
  endpoints: EndpointConfig[];
}

export interface RoutingPolicy {
  /** Retries of one endpoint before moving to the next (0: each endpoint once). */
  retries: number;
  /** First backoff; doubles per retry, with full jitter, capped by max_backoff_ms. */
  backoff_ms: number;
  max_backoff_ms: number;
  /** A `Retry-After` longer than this moves to the next endpoint instead of waiting. */
  max_retry_after_ms: number;
  /** Failures of an endpoint allowed within window_ms; one more takes it out of rotation (as LiteLLM counts). */
  allowed_fails: number;
  window_ms: number;
  /** How long it stays out; then one request probes it back. */
  cooldown_ms: number;
  /** Forward the usage chunk of a stream even when the caller did not ask (OpenRouter does). */
  always_include_usage: boolean;
}

/** Limits per API key and per project; unset: unlimited. */
export interface LimitsConfig {
  requests_per_min?: number;
  tokens_per_min?: number;
  budget_usd_per_day?: string;
  budget_usd_per_month?: string;
}

export interface RouterConfig {
  /** Where it was read from, for messages. */
  source: string;
  providers: ProviderConfig[];
  models: RouterModelConfig[];
  routing: RoutingPolicy;
  limits: { per_key: LimitsConfig; per_project: LimitsConfig };
  /** Per project (`entity/project`): whether messages and outputs are recorded (default true). */
  projects: Record<string, { record_content: boolean }>;
  /** Whether requests are recorded as calls at all (default true; false: a router without traces). */
  record_calls: boolean;
}

/** What served a request. */
export interface Served {
  /** The router model id (may be a fallback from `models`). */
  model: string;
  provider: string;
  upstream_model: string;
  pricing: ModelPricing;
}

/** One try of one endpoint. */
export interface Attempt {
  model: string;
  provider: string;
  /** `ok`, or why it failed: `connect`, `timeout`, `status_429`, `status_5xx`, `status_4xx`, `invalid_response`, `aborted`. */
  outcome: string;
  status?: number;
  latency_ms: number;
}

/** An error in OpenAI's shape, with OpenAI's status; what the server answers on router routes. */
export interface RouterErrorBody {
  status: number;
  type: string;
  code: string | null;
  param: string | null;
  message: string;
  /** Seconds, when known (429, 503). */
  retry_after_sec?: number;
}

/** Usage as the upstream counted it, plus its exact cost. */
export interface PricedUsage {
  usage: Usage;
  /** USD as an exact decimal string (e.g. "0.000638"). */
  cost_usd: string;
}

export interface CallOptions {
  /** Aborted when the client goes away or the request's deadline passes: the upstream request is aborted at once. */
  signal: AbortSignal;
}

export type ChatOutcome =
  | {
      kind: 'json';
      /** The answer to send: `model` the router model, `provider` set, `usage.cost` added. */
      body: ChatCompletion;
      served: Served;
      priced: PricedUsage | undefined;
      attempts: Attempt[];
    }
  | {
      kind: 'stream';
      served: Served;
      attempts: Attempt[];
      /**
       * SSE event payloads to write, each as `data: ${payload}\n\n`, in order, pulled one at a time
       * (the upstream is read only as fast as this is consumed: back-pressure). Chunks are rewritten
       * (`model`, `provider`; `usage.cost` on the usage chunk); the usage chunk is left out unless
       * the caller asked for it; ends with `[DONE]`, or with one `{"error":…}` payload when the
       * upstream fails or ends without finishing. Stopping the iteration (return) aborts the upstream.
       */
      events: AsyncIterable<string>;
      /** Settles after `events` ends or is stopped: the accumulated answer for the record. */
      result: Promise<StreamResult>;
    };

export interface StreamResult {
  /** All choices, tool calls and logprobs accumulated into one ChatCompletion (as far as it got). */
  completion: ChatCompletion;
  priced: PricedUsage | undefined;
  /** Set when the stream did not finish cleanly (upstream error, idle timeout, cut, client gone). */
  error?: RouterErrorBody;
  /** Milliseconds from the request to the first upstream chunk. */
  ttft_ms: number | undefined;
}

export interface EmbeddingsOutcome {
  body: EmbeddingsRes;
  served: Served;
  priced: PricedUsage | undefined;
  attempts: Attempt[];
}

/** Told about every attempt and every priced answer: the server's metrics. */
export interface RouterObserver {
  attempt(attempt: Attempt & { ttft_ms?: number }): void;
  priced(served: Served, priced: PricedUsage): void;
}

export interface Router {
  /** The config in use (after the last reload). */
  readonly config: RouterConfig;
  /** GET /models entries, in file order. */
  models(): ModelEntry[];
  /** Every endpoint with its measured health, in routing order. */
  endpoints(): RouterEndpointHealth[];
  /** Throws RouterError before anything is sent; a stream's later failures end its events. */
  chat(request: ChatCompletionReq, options: CallOptions): Promise<ChatOutcome>;
  embeddings(request: EmbeddingsReq, options: CallOptions): Promise<EmbeddingsOutcome>;
  /** Swaps in a new config; requests in flight finish on the old one; health of unchanged endpoints is kept. */
  reload(config: RouterConfig): void;
  /** Closes the upstream connection pools. */
  close(): Promise<void>;
}
