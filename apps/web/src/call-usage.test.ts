import type { CallSchema } from '@weft/types';
import { describe, expect, it } from 'vitest';
import { flatFields, traceTotals, usageByModel } from './call-usage.ts';

const call = (id: string, start: number, end: number | undefined, more: Partial<CallSchema> = {}): CallSchema => ({
  project_id: 'acme/bot',
  id,
  trace_id: 't',
  op_name: 'op',
  started_at: new Date(Date.UTC(2026, 0, 1) + start).toISOString(),
  ended_at: end === undefined ? undefined : new Date(Date.UTC(2026, 0, 1) + end).toISOString(),
  attributes: {},
  inputs: {},
  ...more,
});

const priced = (prompt: number, completion: number) => ({ prompt_tokens_total_cost: prompt, completion_tokens_total_cost: completion });

describe('usage by model', () => {
  it('joins usage with costs per model, reading either token spelling', () => {
    const summary = {
      usage: {
        'gpt-4o': { requests: 2, prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        'claude-3': { input_tokens: 7, output_tokens: 3 },
      },
      weave: { costs: { 'gpt-4o': priced(0.25, 0.125) } },
    };
    expect(usageByModel({ summary })).toEqual([
      { model: 'gpt-4o', requests: 2, inputTokens: 100, outputTokens: 20, totalTokens: 120, cost: 0.375 },
      { model: 'claude-3', requests: 1, inputTokens: 7, outputTokens: 3, totalTokens: 10, cost: undefined },
    ]);
    expect(usageByModel({ summary: {} })).toEqual([]);
    expect(usageByModel({})).toEqual([]);
  });
});

describe('trace totals', () => {
  it('sums tokens and costs over the calls, spans first start to last end, counts own errors', () => {
    const calls = [
      call('root', 0, 2400, { summary: { weave: { status: 'descendant_error' } } }),
      call('llm-1', 100, 900, {
        summary: {
          usage: { 'gpt-4o': { prompt_tokens: 100, completion_tokens: 20 } },
          weave: { costs: { 'gpt-4o': priced(0.25, 0.5) } },
        },
      }),
      call('llm-2', 1000, 2500, {
        summary: {
          usage: { 'gpt-4o': { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } },
          weave: { costs: { 'gpt-4o': priced(0.125, 0.125) } },
        },
      }),
      call('tool', 1100, 1200, { exception: 'ValueError: bad' }),
    ];
    expect(traceTotals(calls)).toEqual({
      calls: 4,
      inputTokens: 150,
      outputTokens: 25,
      totalTokens: 175,
      cost: 1,
      latencyMs: 2500,
      errors: 1,
      running: 0,
    });
  });

  it('has no cost without priced calls, and no latency while a call runs', () => {
    const totals = traceTotals([call('root', 0, undefined), call('child', 10, 20)]);
    expect(totals.cost).toBeUndefined();
    expect(totals.latencyMs).toBeUndefined();
    expect(totals.running).toBe(1);
    expect(traceTotals([]).latencyMs).toBeUndefined();
  });
});

describe('flat fields', () => {
  it('lists scalars by dot path in key order, lists of scalars as one field', () => {
    const value = { weave: { status: 'success', latency_ms: 12 }, tags: ['a', 'b'], nested: [{ x: 1 }], empty: {}, none: null };
    expect(flatFields(value)).toEqual([
      { path: 'weave.status', text: 'success' },
      { path: 'weave.latency_ms', text: '12' },
      { path: 'tags', text: '["a","b"]' },
      { path: 'nested.0.x', text: '1' },
      { path: 'empty', text: '{}' },
      { path: 'none', text: 'null' },
    ]);
  });

  it('skips the paths asked, and reads a scalar as one field', () => {
    expect(
      flatFields({ usage: { m: { t: 1 } }, weave: { costs: { m: {} }, status: 'ok' } }, (p) => p === 'usage' || p === 'weave.costs'),
    ).toEqual([{ path: 'weave.status', text: 'ok' }]);
    expect(flatFields('text')).toEqual([{ path: '', text: 'text' }]);
    expect(flatFields({})).toEqual([]);
  });
});
