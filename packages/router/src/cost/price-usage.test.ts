import { describe, expect, it } from 'vitest';
import { priceUsage } from './price-usage.ts';

const FREE = { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' };
const usage = (prompt_tokens: number, completion_tokens: number, cached?: number) => ({
  prompt_tokens,
  completion_tokens,
  total_tokens: prompt_tokens + completion_tokens,
  ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
});

describe('priceUsage', () => {
  it("prices the reference's example exactly: 1,000 prompt (200 cached) + 500 completion = 0.000638", () => {
    const pricing = { ...FREE, prompt: '0.00000022', input_cache_read: '0.00000011', completion: '0.00000088' };
    const priced = priceUsage(usage(1000, 500, 200), pricing);
    expect(priced.cost_usd).toBe('0.000638');
    expect(priced.usage).toEqual(usage(1000, 500, 200));
  });

  it('charges each price kind to the last decimal, never through a float', () => {
    // 0.00000017 × 7 is 0.0000011899999999999998 in floats.
    expect(priceUsage(usage(7, 0), { ...FREE, prompt: '0.00000017' }).cost_usd).toBe('0.00000119');
    expect(priceUsage(usage(0, 7), { ...FREE, completion: '0.00000017' }).cost_usd).toBe('0.00000119');
    expect(priceUsage(usage(7, 0, 7), { ...FREE, prompt: '1', input_cache_read: '0.00000017' }).cost_usd).toBe('0.00000119');
    expect(priceUsage(usage(0, 0), { ...FREE, request: '0.0000000000000000000001' }).cost_usd).toBe('0.0000000000000000000001');
    expect(priceUsage(usage(3, 0, 1), { ...FREE, prompt: '0.1', input_cache_read: '0.01' }).cost_usd).toBe('0.21');
    expect(priceUsage(usage(1, 1), { ...FREE, prompt: '0.1', completion: '0.2' }).cost_usd).toBe('0.3');
  });

  it('sums all kinds with the request price once', () => {
    const pricing = { prompt: '0.000001', completion: '0.000002', image: '5', request: '0.001', input_cache_read: '0.0000005' };
    // 90·0.000001 + 10·0.0000005 + 20·0.000002 + 0.001 (image is not charged: usage counts no images)
    expect(priceUsage(usage(100, 20, 10), pricing).cost_usd).toBe('0.001135');
  });

  it('prints zero as "0" and tolerates a bad upstream usage without failing', () => {
    expect(priceUsage(usage(10, 10), FREE).cost_usd).toBe('0');
    const pricing = { ...FREE, prompt: '0.5', input_cache_read: '0.25', completion: '1' };
    // cached beyond prompt is capped; fractional and negative counts count as zero
    expect(priceUsage(usage(2, 0, 5), pricing).cost_usd).toBe('0.5');
    expect(priceUsage({ prompt_tokens: 1.5, completion_tokens: -3, total_tokens: 0 }, pricing).cost_usd).toBe('0');
    expect(priceUsage({ prompt_tokens: 4, completion_tokens: 0, total_tokens: 4, prompt_tokens_details: null }, pricing).cost_usd).toBe(
      '2',
    );
  });

  it('handles counts far beyond what a float would add exactly', () => {
    expect(priceUsage(usage(Number.MAX_SAFE_INTEGER, 0), { ...FREE, prompt: '0.00000022' }).cost_usd).toBe('1981583836.04301802');
  });
});
