import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../types.ts';
import { endpointKey } from './endpoint-key.ts';
import { HealthBook } from './health-book.ts';
import { SampleRing } from './sample-ring.ts';

const POLICY = { allowed_fails: 2, window_ms: 1000, cooldown_ms: 500 };
const K = endpointKey('m', 'p', 'up');

describe('HealthBook cooldowns', () => {
  it('allows allowed_fails failures within the window; one more cools the endpoint down for cooldown_ms', () => {
    const book = new HealthBook(POLICY);
    book.record(K, 'status_5xx', 10, undefined, 0);
    book.record(K, 'connect', 10, undefined, 100);
    expect(book.coolingDownUntil(K, 100)).toBeUndefined();
    book.record(K, 'timeout', 10, undefined, 200);
    expect(book.coolingDownUntil(K, 200)).toBe(700);
    expect(book.coolingDownUntil(K, 699)).toBe(700);
    expect(book.coolingDownUntil(K, 700)).toBeUndefined();
  });

  it('forgets failures older than the window', () => {
    const book = new HealthBook(POLICY);
    book.record(K, 'status_5xx', 10, undefined, 0);
    book.record(K, 'status_5xx', 10, undefined, 500);
    book.record(K, 'status_5xx', 10, undefined, 1000); // the one at 0 has left the window
    expect(book.coolingDownUntil(K, 1000)).toBeUndefined();
    book.record(K, 'status_5xx', 10, undefined, 1001);
    expect(book.coolingDownUntil(K, 1001)).toBe(1501);
  });

  it('a success clears the failures counted so far', () => {
    const book = new HealthBook(POLICY);
    book.record(K, 'status_5xx', 10, undefined, 0);
    book.record(K, 'status_5xx', 10, undefined, 1);
    book.record(K, 'ok', 10, undefined, 2);
    book.record(K, 'status_5xx', 10, undefined, 3);
    book.record(K, 'status_5xx', 10, undefined, 4);
    expect(book.coolingDownUntil(K, 4)).toBeUndefined();
  });

  it.each([
    ['status_429', undefined],
    ['status_4xx', 401],
    ['status_4xx', 403],
    ['status_4xx', 404],
    ['status_4xx', 408],
  ])('cools down at once on %s %s', (outcome, status) => {
    const book = new HealthBook(POLICY);
    book.record(K, outcome, 10, undefined, 50, status === undefined ? {} : { status });
    expect(book.coolingDownUntil(K, 50)).toBe(550);
  });

  it("never counts the caller's own 400s or aborts against the endpoint", () => {
    const book = new HealthBook({ ...POLICY, allowed_fails: 0 });
    book.record(K, 'status_4xx', 10, undefined, 0, { status: 400 });
    book.record(K, 'status_4xx', 10, undefined, 0, { status: 422 });
    book.record(K, 'aborted', 10, undefined, 0);
    expect(book.coolingDownUntil(K, 0)).toBeUndefined();
    expect(book.stats(K)).toMatchObject({ requests: 3, errors: 2 });
  });

  it('lets one probe through when the cooldown ends: success restores, failure cools down again at once', () => {
    const book = new HealthBook(POLICY);
    book.record(K, 'status_429', 10, undefined, 0);
    expect(book.claimProbe(K, 100)).toBe(false); // still cooling down
    expect(book.claimProbe(K, 500)).toBe(true);
    expect(book.coolingDownUntil(K, 500)).toBe(1000); // others skip it while the probe is out
    expect(book.claimProbe(K, 600)).toBe(false);
    book.record(K, 'status_5xx', 10, undefined, 700); // one failure of a probe is enough
    expect(book.coolingDownUntil(K, 700)).toBe(1200);
    expect(book.claimProbe(K, 1200)).toBe(true);
    book.record(K, 'ok', 10, undefined, 1300);
    expect(book.coolingDownUntil(K, 1300)).toBeUndefined();
    expect(book.claimProbe(K, 1300)).toBe(false); // healthy: nothing to probe
  });

  it('lets another probe through when a probe never reports, and frees it when the caller aborts', () => {
    const book = new HealthBook(POLICY);
    book.record(K, 'status_429', 10, undefined, 0);
    expect(book.claimProbe(K, 500)).toBe(true);
    expect(book.claimProbe(K, 1000)).toBe(true); // the first probe's lease ran out
    book.record(K, 'aborted', 10, undefined, 1001);
    expect(book.coolingDownUntil(K, 1001)).toBeUndefined();
    expect(book.claimProbe(K, 1001)).toBe(true);
  });

  it('cooldown_ms 0 disables cooldowns; setPolicy applies a reload', () => {
    const book = new HealthBook({ ...POLICY, cooldown_ms: 0 });
    book.record(K, 'status_429', 10, undefined, 0);
    expect(book.coolingDownUntil(K, 0)).toBeUndefined();
    book.setPolicy({ ...POLICY, cooldown_ms: 50 });
    book.record(K, 'status_429', 10, undefined, 10);
    expect(book.coolingDownUntil(K, 10)).toBe(60);
  });
});

describe('HealthBook stats', () => {
  it('keeps medians of latency, TTFT and throughput over successful attempts only', () => {
    const book = new HealthBook(POLICY);
    expect(book.stats(K)).toEqual({ requests: 0, errors: 0, latency_ms_p50: null, ttft_ms_p50: null, throughput_p50: null });
    book.record(K, 'ok', 100, 20, 0, { completion_tokens: 80 }); // 80 tokens in 80 ms
    book.record(K, 'ok', 300, undefined, 0, { completion_tokens: 300 }); // non-streamed: 300 in 300 ms
    book.record(K, 'ok', 200, 40, 0);
    book.record(K, 'status_5xx', 9999, 1, 0);
    expect(book.stats(K)).toEqual({ requests: 4, errors: 1, latency_ms_p50: 200, ttft_ms_p50: 30, throughput_p50: 1000 });
  });

  it('snapshot lists every endpoint of the config in routing order with its state', () => {
    const pricing = { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' };
    const config = {
      models: [
        {
          id: 'm',
          endpoints: [
            { provider: 'p', model: 'up', pricing, datacenters: [] },
            { provider: 'q', model: 'up2', pricing, datacenters: [] },
          ],
        },
      ],
    } as unknown as RouterConfig;
    const book = new HealthBook(POLICY);
    book.record(K, 'ok', 12, 3, 0);
    book.record(K, 'status_429', 12, undefined, 1_000);
    expect(book.snapshot(config, 1_100)).toEqual([
      {
        model: 'm',
        provider: 'p',
        upstream_model: 'up',
        state: 'cooling_down',
        cooldown_until: new Date(1_500).toISOString(),
        requests: 2,
        errors: 1,
        latency_ms_p50: 12,
        ttft_ms_p50: 3,
      },
      {
        model: 'm',
        provider: 'q',
        upstream_model: 'up2',
        state: 'ok',
        cooldown_until: null,
        requests: 0,
        errors: 0,
        latency_ms_p50: null,
        ttft_ms_p50: null,
      },
    ]);
    book.retain({ models: [] } as unknown as RouterConfig);
    expect(book.stats(K).requests).toBe(0);
  });
});

describe('SampleRing', () => {
  it('holds only the most recent samples', () => {
    const ring = new SampleRing(3);
    expect(ring.p50()).toBeNull();
    for (const v of [1000, 1000, 1000, 1, 2, 3]) ring.push(v);
    expect(ring.size).toBe(3);
    expect(ring.p50()).toBe(2);
    ring.push(10);
    expect(ring.p50()).toBe(3);
    ring.push(Number.NaN);
    expect(ring.size).toBe(3);
    expect(() => new SampleRing(0)).toThrow(/positive integer/);
  });
});
