// Rate limits per API key and class of operations (x-weft-rate-class: ingest or query), off until
// an operator sets them: a self-hosted server must not surprise its own SDKs. With REDIS_URL the
// budget is shared by every replica (rate-limiter-flexible on Redis); without it each process
// limits alone.
//
// Redis must never hold a request: every command has a short timeout, and once Redis fails or
// falls silent the process limits alone (in-process counters) until a probe finds Redis
// answering again. Each change of state is logged once and shown in /ready and a metric.
// Counts made alone are not merged back: for the time of an outage a key can get up to one
// budget per replica.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { redactUrl } from '@weft/store';
import type { RateClass } from '@weft/types/spec';

export interface RateLimit {
  points: number;
  durationSec: number;
}

export type RateLimits = Partial<Record<RateClass, RateLimit>>;

export type RedisState = 'ok' | 'unreachable';

export interface Limiter {
  /** undefined when the request may run; otherwise the refusal to answer (429). */
  take(keyId: string, rateClass: RateClass): Promise<RateRefusal | undefined>;
  /** Whether the shared budget is in use; undefined without REDIS_URL. */
  redisState(): RedisState | undefined;
  close(): Promise<void>;
}

export interface RateRefusal {
  retryAfterSec: number;
  reason: string;
}

export interface LimiterOptions {
  logger?: Logger;
  /** Called with each change of Redis' state (the metric). */
  onRedisState?: (state: RedisState) => void;
  /** Per command; past it Redis counts as silent. */
  commandTimeoutMs?: number;
  /** How often a silent or failed Redis is asked again. */
  probeIntervalMs?: number;
}

/** Parses "100/s", "6000/m", "50000/h" into points per duration. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const m = /^\s*(\d+)\s*\/\s*(s|m|h)\s*$/i.exec(text);
  if (!m || Number(m[1]) < 1) return undefined;
  return { points: Number(m[1]), durationSec: { s: 1, m: 60, h: 3600 }[m[2]!.toLowerCase() as 's' | 'm' | 'h'] };
}

const UNIT = { 1: 's', 60: 'min', 3600: 'h' } as Record<number, string>;

/**
 * undefined when no limit is set: the request path then pays nothing for this feature. With Redis,
 * waits (up to 5 s) for the connection, so a replica that has just started shares the budget from
 * its first request instead of counting alone meanwhile.
 */
export async function createLimiter(
  limits: RateLimits,
  redisUrl: string | undefined,
  opts: LimiterOptions = {},
): Promise<Limiter | undefined> {
  if (Object.keys(limits).length === 0) return undefined;
  const redis = redisUrl ? await sharedRedis(redisUrl, opts) : undefined;
  const limiters = new Map<RateClass, { shared?: RateLimiterAbstract; alone: RateLimiterAbstract; limit: RateLimit }>();
  for (const [rateClass, limit] of Object.entries(limits) as [RateClass, RateLimit][]) {
    const options = { points: limit.points, duration: limit.durationSec, keyPrefix: `weft-rl-${rateClass}` };
    limiters.set(rateClass, {
      limit,
      alone: new RateLimiterMemory(options),
      ...(redis ? { shared: new RateLimiterRedis({ ...options, storeClient: redis.client }) } : {}),
    });
  }
  const refusal = (err: RateLimiterRes, limit: RateLimit, rateClass: RateClass): RateRefusal => {
    const retryAfterSec = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    const per = limit.durationSec in UNIT ? UNIT[limit.durationSec] : `${limit.durationSec} s`;
    return {
      retryAfterSec,
      reason: `Rate limit of ${limit.points} ${rateClass} requests per ${per} exceeded; retry in ${retryAfterSec} s`,
    };
  };
  return {
    async take(keyId, rateClass) {
      const entry = limiters.get(rateClass);
      if (!entry) return undefined;
      if (entry.shared && redis?.state() === 'ok') {
        try {
          await entry.shared.consume(keyId);
          return undefined;
        } catch (err) {
          if (err instanceof RateLimiterRes) return refusal(err, entry.limit, rateClass);
          // Redis failed or timed out: this request and the next ones are counted here.
          redis.failed(err as Error);
        }
      }
      try {
        await entry.alone.consume(keyId);
        return undefined;
      } catch (err) {
        if (err instanceof RateLimiterRes) return refusal(err, entry.limit, rateClass);
        throw err;
      }
    },
    redisState: () => redis?.state(),
    async close() {
      await redis?.close();
    },
  };
}

export interface SharedRedis {
  client: Redis;
  state(): RedisState;
  /** A command failed: limit alone until a probe finds Redis answering. */
  failed(err: Error): void;
  close(): Promise<void>;
}

/** Redis with a watch of its state; also the router limits' shared counters (router/start-router.ts). */
export async function sharedRedis(url: string, opts: LimiterOptions): Promise<SharedRedis> {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: opts.commandTimeoutMs ?? 100,
    // ioredis reconnects on its own; the probe below decides when its answers count again.
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  let state: RedisState = 'unreachable';
  let closed = false;
  let whenOk: (() => void) | undefined;
  const set = (next: RedisState, why: string) => {
    if (next === state || closed) return;
    state = next;
    opts.onRedisState?.(next);
    if (next === 'ok') {
      whenOk?.();
      opts.logger?.info({ redis: redactUrl(url) }, 'Redis answers: rate limits are shared by every replica again');
    } else opts.logger?.warn({ redis: redactUrl(url), why }, 'Redis is unreachable: each process limits alone until it answers');
  };
  // Connection errors are retried by ioredis; they only change the state.
  client.on('error', (err: Error) => set('unreachable', err.message));
  client.on('close', () => set('unreachable', 'connection closed'));
  const probe = async () => {
    try {
      await client.ping();
      set('ok', 'ping answered');
    } catch (err) {
      set('unreachable', (err as Error).message);
    }
  };
  client.on('ready', () => void probe());
  const prober = setInterval(() => {
    if (state === 'unreachable') void probe();
  }, opts.probeIntervalMs ?? 1000);
  prober.unref();
  opts.onRedisState?.(state);
  // Up to 5 s for a first answer, so a new replica shares the budget from its first request.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5_000);
    whenOk = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  whenOk = undefined;
  if ((state as RedisState) !== 'ok')
    opts.logger?.warn({ redis: redactUrl(url) }, 'Redis is unreachable at start: each process limits alone until it answers');
  return {
    client,
    state: () => state,
    failed: (err) => set('unreachable', err.message),
    async close() {
      closed = true;
      clearInterval(prober);
      await client.quit().catch(() => client.disconnect());
    },
  };
}
