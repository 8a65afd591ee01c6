import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogueError, loadCatalogue, parseCatalogue } from './index.ts';

function model(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'acme/Model-1',
    name: 'Acme Model 1',
    created: 1721692800,
    input_modalities: ['text'],
    output_modalities: ['text'],
    context_length: 8192,
    max_output_length: 4096,
    pricing: { prompt: '0.0000001', completion: '0.0000002', image: '0', request: '0', input_cache_read: '0' },
    supported_sampling_parameters: ['temperature', 'top_p'],
    supported_features: ['tools'],
    datacenters: [{ country_code: 'US' }],
    quantization: 'bf16',
    ...overrides,
  };
}

const text = (models: unknown[]) => JSON.stringify({ models });

function problemsOf(input: string): readonly string[] {
  try {
    parseCatalogue(input, 'test.json');
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueError);
    return (error as CatalogueError).problems;
  }
  throw new Error('expected parseCatalogue to throw');
}

describe('parseCatalogue', () => {
  it('accepts a valid catalogue and strips internal fields', () => {
    const catalogue = parseCatalogue(text([model()]), 'test.json');
    expect(catalogue.entries).toHaveLength(1);
    expect(catalogue.entries[0]).not.toHaveProperty('quantization');
  });

  it('reports every problem in ONE error, each with its path', () => {
    const input = text([
      model(),
      model({ id: 'acme/Model-1' }), // duplicate id
      model({ id: 'b', max_output_length: 9000 }),
      model({ id: 'c', pricing: { ...(model().pricing as object), prompt: '2.2e-7', completion: 2.2e-7 } }),
      model({ id: 'd', supported_features: ['tools', 'telepathy', 'tools'], datacenters: [{ country_code: 'us' }] }),
      model({ id: 'e', deprecation_date: '2026-02-30', context_length: 1.5, name: '' }),
    ]);
    let message = '';
    try {
      parseCatalogue(input, 'test.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('Invalid model catalogue test.json (10 problems)');
    for (const line of [
      'models[1].id: duplicate id "acme/Model-1" (first used by models[0])',
      'models[2].max_output_length: 9000 exceeds context_length 8192',
      'models[3].pricing.prompt: "2.2e-7" is not a plain decimal string',
      'models[3].pricing.completion: expected a plain decimal string, got number 2.2e-7',
      'models[4].supported_features[1]: "telepathy" is not one of tools, json_mode, structured_outputs, web_search, reasoning',
      'models[4].supported_features[2]: duplicate entry "tools"',
      'models[4].datacenters[0].country_code: "us" is not an upper-case ISO 3166-1 alpha-2 code',
      'models[5].name: must not be empty',
      'models[5].context_length: expected a positive integer, got number 1.5',
      'models[5].deprecation_date: "2026-02-30" is not a real date in YYYY-MM-DD form',
    ]) {
      expect(message).toContain(`  - ${line}`);
    }
  });

  it('rejects null or empty deprecation_date: the key must be omitted instead', () => {
    expect(problemsOf(text([model({ deprecation_date: null })]))).toEqual([
      'models[0].deprecation_date: expected "YYYY-MM-DD", got null (omit the key when there is no date)',
    ]);
    expect(problemsOf(text([model({ deprecation_date: '' })]))).toHaveLength(1);
    expect(problemsOf(text([model({ deprecation_date: '2026-3-12' })]))).toHaveLength(1);
  });

  it('keeps a past deprecation date in the served entry', () => {
    const catalogue = parseCatalogue(text([model({ deprecation_date: '2020-01-01' })]), 'test.json');
    expect(catalogue.entries[0]?.deprecation_date).toBe('2020-01-01');
  });

  it('catches typos and unknown fields rather than ignoring them', () => {
    expect(problemsOf(text([model({ 'deprecation-date': '2026-03-12' })]))).toEqual(['models[0].deprecation-date: unknown field']);
    expect(problemsOf(JSON.stringify({ models: [model()], modles: [] }))).toEqual(['(root).modles: unknown field']);
  });

  it('reports missing required fields and bad list entries', () => {
    const raw = model({ datacenters: [{ country_code: 'US' }, { country_code: 'US' }], input_modalities: [] });
    delete raw.pricing;
    delete raw.created;
    expect(problemsOf(text([raw]))).toEqual([
      'models[0].created: is required',
      'models[0].input_modalities: must list at least one value',
      'models[0].pricing: is required',
      'models[0].datacenters[1].country_code: duplicate entry "US"',
    ]);
  });

  it('rejects negative prices and checks every price field', () => {
    const pricing = { prompt: '-0.1', completion: '0', image: '0', request: '0' };
    expect(problemsOf(text([model({ pricing })]))).toEqual([
      'models[0].pricing.prompt: "-0.1" must not be negative',
      'models[0].pricing.input_cache_read: is required',
    ]);
  });

  it('serves prices in canonical form whatever their spelling in the file', () => {
    const pricing = { prompt: '0.000000220', completion: '00.5', image: '0.0', request: '0', input_cache_read: '0' };
    const catalogue = parseCatalogue(text([model({ pricing })]), 'test.json');
    expect(catalogue.entries[0]?.pricing).toMatchObject({ prompt: '0.00000022', completion: '0.5', image: '0' });
  });

  it('gives a clear error for malformed JSON or the wrong top-level shape', () => {
    expect(() => parseCatalogue('{"models": [', 'bad.json')).toThrow(/Invalid model catalogue bad\.json.*\n {2}- not valid JSON/);
    expect(problemsOf('[]')).toEqual(['expected {"models": [...]}, got an array']);
    expect(problemsOf('{}')).toEqual(['models: is required']);
    expect(problemsOf('{"models": {}}')).toEqual(['models: expected an array, got an object']);
  });

  it('changes the ETag when a served value changes, but not for internal fields', () => {
    const base = parseCatalogue(text([model()]), 'a');
    const repriced = parseCatalogue(text([model({ pricing: { ...(model().pricing as object), prompt: '0.0000003' } })]), 'b');
    const requantised = parseCatalogue(text([model({ quantization: 'fp8' })]), 'c');
    expect(repriced.etag).not.toBe(base.etag);
    expect(requantised.etag).toBe(base.etag);
  });
});

describe('loadCatalogue', () => {
  it('reads a given path and names it in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'catalogue-'));
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    await writeFile(good, text([model()]));
    await writeFile(bad, text([model({ context_length: 0 })]));
    expect((await loadCatalogue(good)).entries).toHaveLength(1);
    await expect(loadCatalogue(bad)).rejects.toThrow(`Invalid model catalogue ${bad} (1 problem):`);
  });
});
