import { describe, expect, it } from 'vitest';
import { createCatalogue, loadCatalogue, type ModelEntry } from '../router/index.ts';
import { computeCosts, readUsage, type ProjectPrice } from './index.ts';

const catalogue = await loadCatalogue();
const LLAMA_8B = 'meta-llama/Llama-3.1-8B-Instruct';
const KIMI = 'moonshotai/Kimi-K2.5';

// A catalogue with a real prompt-cache discount, to exercise cached pricing.
const cachedModel: ModelEntry = {
  ...catalogue.byId(KIMI)!,
  id: 'acme/cached',
  pricing: { prompt: '0.0000005', completion: '0.00000285', image: '0', request: '0', input_cache_read: '0.0000001' },
};
const withCache = createCatalogue([cachedModel]);

describe('computeCosts', () => {
  it('prices 1,000,000 Llama 3.1 8B prompt tokens at exactly 0.22', () => {
    const costs = computeCosts({ [LLAMA_8B]: { prompt_tokens: 1_000_000, completion_tokens: 0 } }, catalogue);
    expect(costs?.[LLAMA_8B]?.prompt_tokens_total_cost).toBe(0.22);
  });

  it('avoids the float noise a naive tokens × price would show', () => {
    const usage = {
      'meta-llama/Llama-3.1-70B-Instruct': { prompt_tokens: 1_000_000, completion_tokens: 0 },
      'deepseek-ai/DeepSeek-R1-0528': { prompt_tokens: 0, completion_tokens: 1234 },
    };
    expect(1_000_000 * 0.0000008).toBe(0.7999999999999999);
    expect(1234 * 0.0000054).toBe(0.0066635999999999996);
    const costs = computeCosts(usage, catalogue);
    expect(costs?.['meta-llama/Llama-3.1-70B-Instruct']?.prompt_tokens_total_cost).toBe(0.8);
    expect(costs?.['deepseek-ai/DeepSeek-R1-0528']?.completion_tokens_total_cost).toBe(0.0066636);
  });

  it('builds Weave cost entries for known models and skips unknown ones', () => {
    const usage = {
      [LLAMA_8B]: { prompt_tokens: 1234, completion_tokens: 567, total_tokens: 1801, requests: 2 },
      'openai/gpt-4o': { prompt_tokens: 999, completion_tokens: 1 },
      [KIMI]: { input_tokens: 20_000, output_tokens: 3_000 },
    };
    const costs = computeCosts(usage, catalogue);
    expect(Object.keys(costs ?? {})).toEqual([LLAMA_8B, KIMI]);
    expect(costs?.[LLAMA_8B]).toEqual({
      prompt_tokens: 1234,
      completion_tokens: 567,
      requests: 2,
      total_tokens: 1801,
      cached_tokens: 0,
      prompt_tokens_total_cost: 0.00027148, // 1234 × 0.00000022
      completion_tokens_total_cost: 0.00012474, // 567 × 0.00000022
      cached_tokens_total_cost: 0,
      prompt_token_cost: 0.00000022,
      completion_token_cost: 0.00000022,
      prompt_token_cost_unit: 'USD',
      completion_token_cost_unit: 'USD',
      effective_date: '2024-07-23T00:00:00.000Z',
      provider_id: 'weft',
      pricing_level: 'default',
    });
    // Aliases from SDKs that say input/output; total and requests defaulted.
    expect(costs?.[KIMI]).toMatchObject({
      prompt_tokens: 20_000,
      completion_tokens: 3_000,
      total_tokens: 23_000,
      requests: 1,
      prompt_tokens_total_cost: 0.01, // 20,000 × 0.0000005
      completion_tokens_total_cost: 0.00855, // 3,000 × 0.00000285
    });
  });

  it('bills cached prompt tokens at input_cache_read and the rest at prompt', () => {
    const usage = {
      'acme/cached': {
        prompt_tokens: 10_000,
        completion_tokens: 100,
        prompt_tokens_details: { cached_tokens: 8_000 },
      },
    };
    const entry = computeCosts(usage, withCache)?.['acme/cached'];
    expect(entry).toMatchObject({
      prompt_tokens: 10_000,
      cached_tokens: 8_000,
      cached_tokens_total_cost: 0.0008, // 8,000 × 0.0000001
      prompt_tokens_total_cost: 0.0018, // 2,000 × 0.0000005 + 0.0008
      completion_tokens_total_cost: 0.000285,
    });
  });

  it('reads cached tokens from any of the places SDKs put them', () => {
    expect(readUsage({ prompt_tokens: 50, cached_tokens: 20 }).cached_tokens).toBe(20);
    expect(readUsage({ input_tokens: 50, input_tokens_details: { cached_tokens: 30 } }).cached_tokens).toBe(30);
    // Cache writes are a part of the prompt beside the reads: never more than what is left.
    expect(readUsage({ prompt_tokens: 50, cached_tokens: 30, cache_creation_input_tokens: 40 })).toMatchObject({
      cache_creation_tokens: 20,
    });
    // More cached than prompt tokens is bad data: never bill a negative remainder.
    expect(readUsage({ prompt_tokens: 50, cached_tokens: 80 }).cached_tokens).toBe(50);
  });

  it('returns undefined when no model can be priced, so the caller omits costs', () => {
    expect(computeCosts({ 'openai/gpt-4o': { prompt_tokens: 10 } }, catalogue)).toBeUndefined();
    expect(computeCosts({}, catalogue)).toBeUndefined();
    for (const junk of [undefined, null, 'usage', 42, []]) expect(computeCosts(junk, catalogue)).toBeUndefined();
  });

  it('treats junk token counts as 0 instead of throwing on stored data', () => {
    const usage = {
      [LLAMA_8B]: { prompt_tokens: -5, completion_tokens: 'lots', total_tokens: Number.NaN, requests: null },
    };
    expect(computeCosts(usage, catalogue)?.[LLAMA_8B]).toMatchObject({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      requests: 1,
      prompt_tokens_total_cost: 0,
      completion_tokens_total_cost: 0,
    });
    expect(computeCosts({ [LLAMA_8B]: 'not an object' }, catalogue)?.[LLAMA_8B]?.requests).toBe(1);
    expect(readUsage({ requests: -1, prompt_tokens: 7.9 })).toMatchObject({ requests: 0, prompt_tokens: 7 });
  });

  it('still prices retired models, since old calls used them', () => {
    const costs = computeCosts({ 'deepseek-ai/DeepSeek-R1-0528': { prompt_tokens: 3, completion_tokens: 3 } }, catalogue);
    expect(costs?.['deepseek-ai/DeepSeek-R1-0528']?.completion_tokens_total_cost).toBe(0.0000162); // 3 × 0.0000054
  });

  it('keeps ids such as "__proto__" as plain keys', () => {
    const odd = createCatalogue([{ ...cachedModel, id: '__proto__' }]);
    const costs = computeCosts(JSON.parse('{"__proto__": {"prompt_tokens": 2}}'), odd);
    expect(Object.keys(costs ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(costs)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(costs)).__proto__.prompt_tokens_total_cost).toBe(0.000001);
  });
});

describe('computeCosts with project prices', () => {
  const price = (over: Partial<ProjectPrice>): ProjectPrice => ({
    id: '01970000-0000-7000-8000-000000000001',
    llm_id: LLAMA_8B,
    project_id: 'acme/p',
    provider_id: 'default',
    effective_date: '2025-01-01T00:00:00.000Z',
    prompt_token_cost: '0.000001',
    completion_token_cost: '0.000002',
    cache_read_input_token_cost: null,
    cache_creation_input_token_cost: null,
    prompt_token_cost_unit: 'USD',
    completion_token_cost_unit: 'USD',
    created_at: '2025-01-01T00:00:00.000Z',
    created_by: 'alice',
    ...over,
  });
  const usage = { [LLAMA_8B]: { prompt_tokens: 1000, completion_tokens: 10 } };
  const at = (prices: ProjectPrice[], startedAt: string) => computeCosts(usage, catalogue, { prices: () => prices, startedAt })?.[LLAMA_8B];

  it("prices at the project's price in effect, with its provenance, over the catalogue", () => {
    const entry = at([price({ provider_id: 'meta', prompt_token_cost_unit: 'EUR' })], '2025-06-01T00:00:00.000Z');
    expect(entry).toEqual({
      prompt_tokens: 1000,
      completion_tokens: 10,
      requests: 1,
      total_tokens: 1010,
      cached_tokens: 0,
      prompt_tokens_total_cost: 0.001,
      completion_tokens_total_cost: 0.00002,
      cached_tokens_total_cost: 0,
      prompt_token_cost: 0.000001,
      completion_token_cost: 0.000002,
      prompt_token_cost_unit: 'EUR',
      completion_token_cost_unit: 'USD',
      effective_date: '2025-01-01T00:00:00.000Z',
      provider_id: 'meta',
      pricing_level: 'project',
      pricing_level_id: 'acme/p',
      created_at: '2025-01-01T00:00:00.000Z',
      created_by: 'alice',
      cache_read_input_token_cost: 0.000001,
      cache_creation_input_token_cost: 0.000001,
      cache_creation_input_tokens: 0,
      cache_creation_input_tokens_total_cost: 0,
    });
  });

  it('takes the latest price in effect when the call started, then the catalogue, then a later price', () => {
    const jan = price({ id: 'jan', effective_date: '2025-01-01T00:00:00.000Z', prompt_token_cost: '0.000001' });
    const mar = price({ id: 'mar', effective_date: '2025-03-01T00:00:00.000Z', prompt_token_cost: '0.000003' });
    expect(at([mar, jan], '2025-02-01T00:00:00.000Z')?.prompt_tokens_total_cost).toBe(0.001);
    expect(at([mar, jan], '2025-03-01T00:00:00.000Z')?.prompt_tokens_total_cost).toBe(0.003);
    // Before any project price, the catalogue's (in effect since the model's creation, 2024).
    expect(at([mar, jan], '2024-12-01T00:00:00.000Z')).toMatchObject({ pricing_level: 'default', prompt_tokens_total_cost: 0.00022 });
    // Before the catalogue's too: the latest price of the project, as Weave falls back.
    expect(at([jan, mar], '2020-01-01T00:00:00.000Z')).toMatchObject({ pricing_level: 'project', prompt_tokens_total_cost: 0.003 });
    // The same effective date: the price added last.
    const again = price({ id: 'again', created_at: '2025-01-02T00:00:00.000Z', prompt_token_cost: '0.000005' });
    expect(at([again, jan], '2025-02-01T00:00:00.000Z')?.prompt_tokens_total_cost).toBe(0.005);
  });

  it('prices a model the catalogue lacks, and only from the project that set it', () => {
    const custom = { 'acme/custom': { prompt_tokens: 3, completion_tokens: 1 } };
    const prices = [price({ llm_id: 'acme/custom' })];
    const costs = computeCosts(custom, catalogue, {
      prices: (id) => prices.filter((p) => p.llm_id === id),
      startedAt: '2025-02-01T00:00:00.000Z',
    });
    expect(costs?.['acme/custom']).toMatchObject({ prompt_tokens_total_cost: 0.000003, completion_tokens_total_cost: 0.000002 });
    expect(computeCosts(custom, catalogue)).toBeUndefined();
  });

  it('bills cache reads and writes at their own prices when given, else at the prompt price', () => {
    const cachedUsage = {
      [LLAMA_8B]: {
        prompt_tokens: 1000,
        completion_tokens: 0,
        prompt_tokens_details: { cached_tokens: 600 },
        cache_creation_input_tokens: 300,
      },
    };
    const started = '2025-02-01T00:00:00.000Z';
    const given = price({ cache_read_input_token_cost: '0.0000001', cache_creation_input_token_cost: '0.0000015' });
    expect(computeCosts(cachedUsage, catalogue, { prices: () => [given], startedAt: started })?.[LLAMA_8B]).toMatchObject({
      cached_tokens: 600,
      cached_tokens_total_cost: 0.00006, // 600 × 0.0000001
      cache_creation_input_tokens: 300,
      cache_creation_input_tokens_total_cost: 0.00045, // 300 × 0.0000015
      prompt_tokens_total_cost: 0.00061, // 100 × 0.000001 + 0.00006 + 0.00045
      cache_read_input_token_cost: 0.0000001,
      cache_creation_input_token_cost: 0.0000015,
    });
    // Not given: no discount; explicitly 0: free, as the request says.
    expect(
      computeCosts(cachedUsage, catalogue, { prices: () => [price({})], startedAt: started })?.[LLAMA_8B]?.prompt_tokens_total_cost,
    ).toBe(0.001);
    const free = price({ cache_read_input_token_cost: '0', cache_creation_input_token_cost: '0' });
    expect(computeCosts(cachedUsage, catalogue, { prices: () => [free], startedAt: started })?.[LLAMA_8B]?.prompt_tokens_total_cost).toBe(
      0.0001,
    );
    // The catalogue has no cache-write price: those tokens cost the prompt price, as before
    // (400 × 0.00000022; Llama's input_cache_read is "0").
    expect(computeCosts(cachedUsage, catalogue)?.[LLAMA_8B]).toMatchObject({ cached_tokens: 600, prompt_tokens_total_cost: 0.000088 });
  });
});

describe('computeCosts with the price a call recorded (the inference router)', () => {
  const recorded = {
    model: LLAMA_8B,
    provider: 'vllm-eu',
    pricing: { prompt: '0.00000022', completion: '0.00000088', input_cache_read: '0.00000011' },
  };
  const usage = {
    [LLAMA_8B]: { prompt_tokens: 1000, completion_tokens: 500, prompt_tokens_details: { cached_tokens: 200 } },
    other: { prompt_tokens: 1 },
  };
  const projectPrice: ProjectPrice = {
    id: '01970000-0000-7000-8000-000000000009',
    llm_id: LLAMA_8B,
    project_id: 'acme/p',
    provider_id: 'default',
    effective_date: '2025-01-01T00:00:00.000Z',
    prompt_token_cost: '1',
    completion_token_cost: '1',
    cache_read_input_token_cost: null,
    cache_creation_input_token_cost: null,
    prompt_token_cost_unit: 'USD',
    completion_token_cost_unit: 'USD',
    created_at: '2025-01-01T00:00:00.000Z',
    created_by: 'alice',
  };

  it('prices that model at the recorded price, over the project’s and the catalogue’s (reference §4.4 example)', () => {
    const costs = computeCosts(usage, catalogue, {
      prices: (id) => (id === LLAMA_8B ? [projectPrice] : []),
      startedAt: '2026-01-02T03:04:05.000Z',
      recorded,
    });
    // 800·0.00000022 + 200·0.00000011 = 0.000198; 500·0.00000088 = 0.00044; total 0.000638 USD.
    expect(costs?.[LLAMA_8B]).toMatchObject({
      prompt_tokens_total_cost: 0.000198,
      completion_tokens_total_cost: 0.00044,
      cached_tokens_total_cost: 0.000022,
      provider_id: 'vllm-eu',
      pricing_level: 'default',
      effective_date: '2026-01-02T03:04:05.000Z',
    });
  });

  it('leaves the call’s other models to the usual choice', () => {
    const costs = computeCosts(usage, catalogue, {
      prices: () => [],
      startedAt: '2026-01-02T03:04:05.000Z',
      recorded: { ...recorded, model: 'other' },
    });
    expect(costs?.other?.provider_id).toBe('vllm-eu');
    expect(costs?.[LLAMA_8B]?.provider_id).toBe('weft');
  });
});
