// The router's limits in process and on Redis (127.0.0.1:6379): requests and tokens per minute,
// budgets per UTC day and month counted exactly, per key and per project, shared by two
// instances through Redis, and counted alone while Redis does not answer.
import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitsConfig } from '../types.ts';
import { createRouterLimits, type RouterLimitsOptions } from './create-router-limits.ts';
import { usdToUnits } from './usd-units.ts';

const redisUp = () =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection(6379, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

// One minute before the next UTC month: the end of a day and of a month, always in the future
// (Redis expires counters after their period).
const real = new Date();
const MONTH_END = Date.UTC(real.getUTCFullYear(), real.getUTCMonth() + 1, 1) - 60_000;
const limits = (per_key: LimitsConfig, per_project: LimitsConfig = {}) => ({ per_key, per_project });

describe('usdToUnits', () => {
  it('is exact to 12 digits and rounds further digits up', () => {
    expect(usdToUnits('0.000638')).toBe(638_000_000n);
    expect(usdToUnits('12')).toBe(12_000_000_000_000n);
    expect(usdToUnits('0.0000000000001')).toBe(1n);
    expect(() => usdToUnits('1e-6')).toThrow(/plain decimal/);
  });
});

for (const backend of ['in-process', 'redis'] as const) {
  describe(`router limits (${backend})`, () => {
    let redis: Redis | undefined;
    let available = true;
    const prefix = `weft-router-test-${randomUUID()}`;
    let clock = MONTH_END;
    const make = (l: RouterLimitsOptions['limits']) =>
      createRouterLimits({ limits: l, redis, keyPrefix: `${prefix}-${randomUUID()}`, now: () => clock });

    beforeAll(async () => {
      if (backend !== 'redis') return;
      available = await redisUp();
      if (!available) {
        if (process.env.WEFT_REQUIRE_REDIS === '1') throw new Error('Redis is not reachable on 127.0.0.1:6379 (WEFT_REQUIRE_REDIS=1)');
        console.warn('SKIPPED: Redis is not reachable on 127.0.0.1:6379; the shared router-limit tests did not run');
        return;
      }
      redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    });
    afterAll(async () => {
      if (!redis) return;
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });
    const skip = () => backend === 'redis' && !available;

    it('refuses past the requests per minute, per key and per project', async () => {
      if (skip()) return;
      const l = make(limits({ requests_per_min: 2 }, { requests_per_min: 3 }));
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
      const refused = await l.admit('k1', 'acme/p');
      expect(refused).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null });
      expect(refused?.message).toMatch(/^Rate limit of 2 requests per minute for this API key reached; retry in \d+ s$/);
      expect(refused?.retry_after_sec).toBeGreaterThanOrEqual(1);
      expect(refused?.retry_after_sec).toBeLessThanOrEqual(60);
      // Another key of the project has its own minute, until the project's own limit.
      expect(await l.admit('k2', 'acme/p')).toBeUndefined();
      expect(await l.admit('k2', 'acme/p')).toMatchObject({ message: expect.stringMatching(/for project acme\/p reached/) });
      // The refused request was counted against k2's own minute (taken before the project's).
      expect(await l.admit('k3', 'acme/other')).toBeUndefined();
    });

    it('counts tokens after the answer and refuses once a minute is at its limit', async () => {
      if (skip()) return;
      const l = make(limits({ tokens_per_min: 100 }));
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
      await l.account('k1', 'acme/p', 99, '0');
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
      await l.account('k1', 'acme/p', 1, '0');
      const refused = await l.admit('k1', 'acme/p');
      expect(refused).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(refused?.message).toMatch(/^Rate limit of 100 tokens per minute for this API key/);
      expect(await l.admit('k2', 'acme/p')).toBeUndefined();
    });

    it('sums spend exactly against a daily budget and renews at UTC midnight', async () => {
      if (skip()) return;
      clock = MONTH_END - 24 * 3600_000; // the day before the month's last
      const l = make(limits({ budget_usd_per_day: '1' }));
      // In floating point ten times 0.1 is 0.9999999999999999, under this budget; exactly it is 1.
      for (let i = 0; i < 9; i++) await l.account('k1', 'acme/p', 10, '0.1');
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
      await l.account('k1', 'acme/p', 10, '0.1');
      const refused = await l.admit('k1', 'acme/p');
      expect(refused).toMatchObject({ status: 429, type: 'budget_exceeded', code: 'daily_budget_exceeded', param: null });
      expect(refused?.message).toBe('The budget of 1 USD per UTC day for this API key is spent (1 USD); it renews in 60 s');
      expect(refused?.retry_after_sec).toBe(60);
      // A new UTC day starts at zero.
      clock += 60_000;
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
    });

    it('holds a monthly budget per project across keys and days', async () => {
      if (skip()) return;
      clock = MONTH_END - 3 * 24 * 3600_000;
      const l = make(limits({}, { budget_usd_per_month: '1' }));
      await l.account('k1', 'acme/p', 0, '0.6');
      clock += 24 * 3600_000;
      expect(await l.admit('k2', 'acme/p')).toBeUndefined();
      await l.account('k2', 'acme/p', 0, '0.4');
      const refused = await l.admit('k3', 'acme/p');
      expect(refused).toMatchObject({ type: 'budget_exceeded', code: 'monthly_budget_exceeded' });
      expect(refused?.message).toMatch(/^The budget of 1 USD per UTC month for project acme\/p is spent \(1 USD\)/);
      expect(refused?.retry_after_sec).toBe((MONTH_END + 60_000 - clock) / 1000);
      expect(await l.admit('k1', 'acme/q')).toBeUndefined();
      clock = MONTH_END + 60_000;
      expect(await l.admit('k3', 'acme/p')).toBeUndefined();
    });

    it('keeps the counts when a reload changes other limits', async () => {
      if (skip()) return;
      clock = MONTH_END;
      const l = make(limits({ requests_per_min: 1, budget_usd_per_day: '1' }));
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
      await l.account('k1', 'acme/p', 5, '1');
      l.update(limits({ requests_per_min: 1, budget_usd_per_day: '2' }));
      expect(await l.admit('k1', 'acme/p')).toMatchObject({ type: 'rate_limit_error' });
      l.update(limits({ budget_usd_per_day: '1' }));
      expect(await l.admit('k1', 'acme/p')).toMatchObject({ type: 'budget_exceeded' });
    });

    // Declared on Redis only: two in-process instances share nothing by design.
    if (backend === 'redis')
      it('shares every count between two instances', async () => {
        if (skip()) return;
        clock = MONTH_END;
        const same = {
          limits: limits({ requests_per_min: 3, budget_usd_per_day: '0.5' }),
          redis,
          keyPrefix: `${prefix}-shared`,
          now: () => clock,
        };
        const a = createRouterLimits(same);
        const b = createRouterLimits(same);
        expect(await a.admit('k1', 'acme/p')).toBeUndefined();
        expect(await b.admit('k1', 'acme/p')).toBeUndefined();
        expect(await a.admit('k1', 'acme/p')).toBeUndefined();
        expect(await b.admit('k1', 'acme/p')).toMatchObject({ type: 'rate_limit_error' });
        await a.account('k9', 'acme/p', 1, '0.5');
        expect(await b.admit('k9', 'acme/p')).toMatchObject({ type: 'budget_exceeded' });
      });
  });
}

describe('router limits while Redis does not answer', () => {
  it('counts in process alone, refusing past the limits, and never throws', async () => {
    // Nothing listens on port 1: every command fails; with its offline queue on, a command would
    // wait for a connection forever, so the limits' own timeout decides.
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, retryStrategy: () => 50 });
    dead.on('error', () => undefined); // connection errors are expected here
    const failures: Error[] = [];
    const l = createRouterLimits({
      limits: limits({ requests_per_min: 2, budget_usd_per_day: '1' }),
      redis: dead,
      redisTimeoutMs: 50,
      onRedisFailure: (err) => failures.push(err),
    });
    try {
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
      expect(await l.admit('k1', 'acme/p')).toBeUndefined();
      expect(await l.admit('k1', 'acme/p')).toMatchObject({ status: 429, type: 'rate_limit_error' });
      await l.account('k2', 'acme/p', 1, '1');
      expect(await l.admit('k2', 'acme/p')).toMatchObject({ status: 429, type: 'budget_exceeded' });
      expect(failures.length).toBeGreaterThanOrEqual(1);
    } finally {
      dead.disconnect();
    }
  });
});
