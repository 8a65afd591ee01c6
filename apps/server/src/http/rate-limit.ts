// Rate limits per API key and class of operations (x-weft-rate-class: ingest or query), off until
// an operator sets them: a self-hosted server must not surprise its own SDKs. With REDIS_URL the
// budget is shared by every replica (rate-limiter-flexible on Redis, an in-process limiter as
// insurance while Redis is unreachable); without it each process limits alone.
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateClass } from '@weft/types/spec';

export interface RateLimit {
  points: number;
  durationSec: number;
}

export type RateLimits = Partial<Record<RateClass, RateLimit>>;

export interface Limiter {
  /** undefined when the request may run; otherwise the refusal to answer (429). */
  take(keyId: string, rateClass: RateClass): Promise<RateRefusal | undefined>;
  close(): Promise<void>;
}

export interface RateRefusal {
  retryAfterSec: number;
  reason: string;
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
export async function createLimiter(limits: RateLimits, redisUrl: string | undefined): Promise<Limiter | undefined> {
  if (Object.keys(limits).length === 0) return undefined;
  const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  // Connection errors are retried by ioredis; the insurance limiter covers the gap.
  redis?.on('error', () => {});
  if (redis && redis.status !== 'ready') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  const limiters = new Map<RateClass, { limiter: RateLimiterAbstract; limit: RateLimit }>();
  for (const [rateClass, limit] of Object.entries(limits) as [RateClass, RateLimit][]) {
    const options = { points: limit.points, duration: limit.durationSec, keyPrefix: `weft-rl-${rateClass}` };
    const memory = new RateLimiterMemory(options);
    limiters.set(rateClass, {
      limit,
      limiter: redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory,
    });
  }
  return {
    async take(keyId, rateClass) {
      const entry = limiters.get(rateClass);
      if (!entry) return undefined;
      try {
        await entry.limiter.consume(keyId);
        return undefined;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        const retryAfterSec = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        const per = entry.limit.durationSec in UNIT ? UNIT[entry.limit.durationSec] : `${entry.limit.durationSec} s`;
        return {
          retryAfterSec,
          reason: `Rate limit of ${entry.limit.points} ${rateClass} requests per ${per} exceeded; retry in ${retryAfterSec} s`,
        };
      }
    },
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}
