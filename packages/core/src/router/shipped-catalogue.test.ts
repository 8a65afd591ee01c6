import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from './index.ts';

const WIRE_KEYS = [
  'id',
  'name',
  'created',
  'input_modalities',
  'output_modalities',
  'context_length',
  'max_output_length',
  'pricing',
  'supported_sampling_parameters',
  'supported_features',
  'datacenters',
];
const CANONICAL_DECIMAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
const RETIRED = ['deepseek-ai/DeepSeek-R1-0528', 'deepseek-ai/DeepSeek-V3-0324', 'moonshotai/Kimi-K2-Instruct'];

describe('shipped catalogue/models.json', async () => {
  const catalogue = await loadCatalogue();

  it('loads all 20 models in file order', () => {
    expect(catalogue.entries).toHaveLength(20);
    expect(catalogue.entries[0]?.id).toBe('meta-llama/Llama-3.1-8B-Instruct');
    expect(catalogue.entries.slice(-3).map((e) => e.id)).toEqual(RETIRED);
  });

  it('emits exactly the wire fields, never internal ones like quantization', () => {
    for (const entry of catalogue.entries) {
      const keys = Object.keys(entry);
      const expected = 'deprecation_date' in entry ? [...WIRE_KEYS, 'deprecation_date'] : WIRE_KEYS;
      expect(keys).toEqual(expected);
      expect(Object.keys(entry.pricing)).toEqual(['prompt', 'completion', 'image', 'request', 'input_cache_read']);
    }
    expect(catalogue.body).not.toContain('quantization');
  });

  it('keeps retired models in the list with their date, and omits the key for the rest', () => {
    for (const entry of catalogue.entries) {
      if (RETIRED.includes(entry.id)) expect(entry.deprecation_date).toBe('2026-03-12');
      else expect('deprecation_date' in entry).toBe(false);
    }
    expect(catalogue.body).not.toMatch(/"deprecation_date":(null|"")/);
  });

  it('serves prices as canonical plain decimal strings, never exponents', () => {
    for (const entry of catalogue.entries) {
      for (const price of Object.values(entry.pricing)) expect(price).toMatch(CANONICAL_DECIMAL);
    }
    expect(catalogue.body).not.toMatch(/\d[eE][-+]?\d/);
    expect(catalogue.byId('meta-llama/Llama-3.1-8B-Instruct')?.pricing).toEqual({
      prompt: '0.00000022',
      completion: '0.00000022',
      image: '0',
      request: '0',
      input_cache_read: '0',
    });
  });

  it('marks the reasoning models', () => {
    const reasoning = catalogue.entries.filter((e) => e.supported_features.includes('reasoning')).map((e) => e.id);
    expect(reasoning.sort()).toEqual(
      [
        'deepseek-ai/DeepSeek-R1-0528',
        'Qwen/Qwen3-235B-A22B-Thinking-2507',
        'openai/gpt-oss-120b',
        'openai/gpt-oss-20b',
        'moonshotai/Kimi-K2.5',
        'MiniMaxAI/MiniMax-M2.5',
        'nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8',
      ].sort(),
    );
  });

  it('precomputes the body and a strong sha256 ETag of it', () => {
    expect(catalogue.body).toBe(JSON.stringify({ data: catalogue.entries }));
    const digest = createHash('sha256').update(catalogue.body).digest('base64url');
    expect(catalogue.etag).toBe(`"${digest}"`);
    expect(catalogue.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  });

  it('looks models up by exact id', () => {
    expect(catalogue.byId('openai/gpt-oss-20b')?.name).toBe('OpenAI GPT OSS 20B');
    expect(catalogue.byId('openai/GPT-OSS-20B')).toBeUndefined();
    expect(catalogue.byId('nope')).toBeUndefined();
  });

  it('freezes entries so the precomputed body and ETag cannot go stale', () => {
    const entry = catalogue.entries[0]!;
    expect(() => {
      entry.pricing.prompt = '1';
    }).toThrow(TypeError);
    expect(() => {
      entry.supported_features.push('web_search');
    }).toThrow(TypeError);
  });
});
