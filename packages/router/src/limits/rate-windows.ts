// Requests and tokens per minute for one scope (API key or project), on rate-limiter-flexible: in
// Redis when shared, in process otherwise, with the in-process twin taking over while Redis fails
// (redis-circuit.ts). Requests are taken when admitted; tokens are known only after the answer,
// so they are added then, and a scope already at its limit is refused until its minute ends.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { sharedOrAlone, type RedisCircuit } from './redis-circuit.ts';

export interface WindowRefusal {
  limit: number;
  retryAfterSec: number;
}

interface Pair {
  points: number;
  shared?: RateLimiterAbstract;
  alone: RateLimiterAbstract;
}

export class RateWindow {
  private pair: Pair | undefined;

  constructor(
    private readonly keyPrefix: string,
    private readonly redis: Redis | undefined,
    private readonly circuit: RedisCircuit,
    private readonly timeoutMs: number,
  ) {}

  /** Sets the limit (undefined: none). Counts survive when it is unchanged, and in Redis always. */
  setLimit(points: number | undefined): void {
    if (points === this.pair?.points) return;
    if (points === undefined) {
      this.pair = undefined;
      return;
    }
    const options = { points, duration: 60, keyPrefix: this.keyPrefix };
    this.pair = {
      points,
      alone: new RateLimiterMemory(options),
      ...(this.redis ? { shared: new RateLimiterRedis({ ...options, storeClient: this.redis }) } : {}),
    };
  }

  get limited(): boolean {
    return this.pair !== undefined;
  }

  /** Takes one point; the refusal when the minute's points are spent. */
  async take(id: string): Promise<WindowRefusal | undefined> {
    const pair = this.pair;
    if (!pair) return undefined;
    return this.onEither(pair, async (limiter) => {
      try {
        await limiter.consume(id, 1);
        return undefined;
      } catch (err) {
        if (err instanceof RateLimiterRes) return refusal(pair.points, err);
        throw err;
      }
    });
  }

  /** The refusal when the minute's points are already spent (takes nothing). */
  async check(id: string): Promise<WindowRefusal | undefined> {
    const pair = this.pair;
    if (!pair) return undefined;
    return this.onEither(pair, async (limiter) => {
      const res = await limiter.get(id);
      return res && res.consumedPoints >= pair.points ? refusal(pair.points, res) : undefined;
    });
  }

  /** Adds points after the fact (tokens of an answer); never refuses. */
  async add(id: string, points: number): Promise<void> {
    const pair = this.pair;
    if (!pair || points <= 0) return;
    await this.onEither(pair, (limiter) => limiter.penalty(id, points));
  }

  private onEither<T>(pair: Pair, run: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    const { shared } = pair;
    return sharedOrAlone(this.circuit, this.timeoutMs, shared && (() => run(shared)), () => run(pair.alone));
  }
}

const refusal = (limit: number, res: RateLimiterRes): WindowRefusal => ({
  limit,
  retryAfterSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
});
