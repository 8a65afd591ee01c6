import { DEFAULT_ROUTING } from '../config/defaults.ts';
import type { Attempt, RouterConfig, RouterEndpointHealth, RoutingPolicy } from '../types.ts';
import { endpointKey } from './endpoint-key.ts';
import { SampleRing } from './sample-ring.ts';

export type HealthPolicy = Pick<RoutingPolicy, 'allowed_fails' | 'window_ms' | 'cooldown_ms'>;

/** What the book knows of one endpoint. */
export interface EndpointStats {
  /** Attempts recorded since the process started. */
  requests: number;
  /** Attempts that did not end `ok` (aborted by the caller excepted). */
  errors: number;
  /** Medians over the most recent successful attempts; null until there is one. */
  latency_ms_p50: number | null;
  ttft_ms_p50: number | null;
  /** Completion tokens per second of generation (after the first token when streamed). */
  throughput_p50: number | null;
}

/** Optional facts of an attempt beyond its outcome. */
export interface AttemptDetail {
  /** The upstream's HTTP status: 401, 403, 404, 408 cool the endpoint down at once. */
  status?: number;
  /** From the answer's usage, for throughput. */
  completion_tokens?: number;
}

/** Statuses that say the endpoint itself is unusable (key refused, model missing) or saturated. */
const IMMEDIATE_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 408, 429]);
const SAMPLES = 64;

interface Entry {
  requests: number;
  errors: number;
  /** Times of failures within the window, oldest first. */
  fails: number[];
  cooldownUntil: number | undefined;
  /** The cooldown ended but no attempt has succeeded since: one probe at a time. */
  halfOpen: boolean;
  /** While a probe is out: until when others leave the endpoint alone. */
  probeUntil: number | undefined;
  latency: SampleRing;
  ttft: SampleRing;
  throughput: SampleRing;
}

/**
 * Health of every endpoint as this process measured it, LiteLLM-like: more than allowed_fails
 * failures within window_ms (or one 429, 401, 403, 404 or 408) take an endpoint out of rotation
 * for cooldown_ms (0 disables cooldowns); when that ends, one request probes it (others keep
 * skipping it for one more cooldown_ms or until the probe reports): success restores it, failure
 * cools it down again at once. A 400-class answer that is the caller's fault, and attempts the
 * caller aborted, are not the endpoint's failures. Memory is bounded: a fixed ring of samples
 * per endpoint, and `retain` drops endpoints a reload removed.
 */
export class HealthBook {
  private readonly entries = new Map<string, Entry>();
  private policy: HealthPolicy;

  constructor(policy: HealthPolicy = DEFAULT_ROUTING) {
    this.policy = { allowed_fails: policy.allowed_fails, window_ms: policy.window_ms, cooldown_ms: policy.cooldown_ms };
  }

  /** A reload's routing applies from the next record on; cooldowns already running keep their end. */
  setPolicy(policy: HealthPolicy): void {
    this.policy = { allowed_fails: policy.allowed_fails, window_ms: policy.window_ms, cooldown_ms: policy.cooldown_ms };
  }

  record(
    key: string,
    outcome: Attempt['outcome'],
    latency_ms: number,
    ttft_ms: number | undefined,
    now: number,
    detail: AttemptDetail = {},
  ): void {
    const entry = this.entry(key);
    entry.requests += 1;
    if (outcome === 'ok') {
      entry.fails = [];
      entry.cooldownUntil = undefined;
      entry.halfOpen = false;
      entry.probeUntil = undefined;
      entry.latency.push(latency_ms);
      if (ttft_ms !== undefined) entry.ttft.push(ttft_ms);
      const tokens = detail.completion_tokens;
      const generating_ms = latency_ms - (ttft_ms ?? 0);
      if (tokens !== undefined && tokens > 0 && generating_ms > 0) entry.throughput.push((tokens * 1000) / generating_ms);
      return;
    }
    if (outcome === 'aborted') {
      // The caller went away: says nothing of the endpoint, but frees a probe it held.
      entry.probeUntil = undefined;
      return;
    }
    entry.errors += 1;
    const immediate = outcome === 'status_429' || (detail.status !== undefined && IMMEDIATE_STATUSES.has(detail.status));
    if (outcome === 'status_4xx' && !immediate) return;
    if (this.policy.cooldown_ms <= 0) return;
    if (immediate || entry.halfOpen) {
      this.coolDown(entry, now);
      return;
    }
    const since = now - this.policy.window_ms;
    entry.fails = entry.fails.filter((t) => t > since);
    entry.fails.push(now);
    // Cooling down empties the list, so it never holds more than allowed_fails times.
    if (entry.fails.length > this.policy.allowed_fails) this.coolDown(entry, now);
  }

  /** When the endpoint comes back into rotation, if it is out of it at `now` (cooling down, or a probe of it is out). */
  coolingDownUntil(key: string, now: number): number | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.cooldownUntil !== undefined && now < entry.cooldownUntil) return entry.cooldownUntil;
    if (entry.halfOpen && entry.probeUntil !== undefined && now < entry.probeUntil) return entry.probeUntil;
    return undefined;
  }

  /**
   * Called by the planner for each endpoint it plans that is in rotation: when the endpoint's
   * cooldown has ended and no probe is out, this request becomes the probe (returns true) and
   * others skip the endpoint until it reports or one cooldown_ms passes.
   */
  claimProbe(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry?.halfOpen || this.coolingDownUntil(key, now) !== undefined) return false;
    entry.probeUntil = now + Math.max(this.policy.cooldown_ms, 1);
    return true;
  }

  stats(key: string): EndpointStats {
    const entry = this.entries.get(key);
    if (!entry) return { requests: 0, errors: 0, latency_ms_p50: null, ttft_ms_p50: null, throughput_p50: null };
    return {
      requests: entry.requests,
      errors: entry.errors,
      latency_ms_p50: entry.latency.p50(),
      ttft_ms_p50: entry.ttft.p50(),
      throughput_p50: entry.throughput.p50(),
    };
  }

  /** Every endpoint of the config, in routing order, with its health (routerEndpointsList). */
  snapshot(config: RouterConfig, now: number): RouterEndpointHealth[] {
    return config.models.flatMap((model) =>
      model.endpoints.map((endpoint) => {
        const key = endpointKey(model.id, endpoint.provider, endpoint.model);
        const until = this.coolingDownUntil(key, now);
        const stats = this.stats(key);
        return {
          model: model.id,
          provider: endpoint.provider,
          upstream_model: endpoint.model,
          state: until === undefined ? ('ok' as const) : ('cooling_down' as const),
          cooldown_until: until === undefined ? null : new Date(until).toISOString(),
          requests: stats.requests,
          errors: stats.errors,
          latency_ms_p50: stats.latency_ms_p50,
          ttft_ms_p50: stats.ttft_ms_p50,
        };
      }),
    );
  }

  /** Forgets endpoints the config no longer has (after a reload); keeps the others' health. */
  retain(config: RouterConfig): void {
    const keep = new Set(config.models.flatMap((m) => m.endpoints.map((e) => endpointKey(m.id, e.provider, e.model))));
    for (const key of this.entries.keys()) if (!keep.has(key)) this.entries.delete(key);
  }

  private coolDown(entry: Entry, now: number): void {
    entry.cooldownUntil = now + this.policy.cooldown_ms;
    entry.fails = [];
    entry.halfOpen = true;
    entry.probeUntil = undefined;
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        requests: 0,
        errors: 0,
        fails: [],
        cooldownUntil: undefined,
        halfOpen: false,
        probeUntil: undefined,
        latency: new SampleRing(SAMPLES),
        ttft: new SampleRing(SAMPLES),
        throughput: new SampleRing(SAMPLES),
      };
      this.entries.set(key, entry);
    }
    return entry;
  }
}
