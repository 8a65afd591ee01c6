// The router list: exact decimal prices, stable ETag, 304 on revalidation, MODELS_FILE.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server.close());

describe('GET /inference/router/gateway/models', () => {
  it('lists the shipped catalogue with prices as plain decimal strings', async () => {
    const { data } = await server.client('none').GET('/inference/router/gateway/models');
    expect(data.length).toBeGreaterThanOrEqual(17);
    const llama = data.find((m) => m.id === 'meta-llama/Llama-3.1-8B-Instruct');
    expect(llama?.pricing).toEqual({ prompt: '0.00000022', completion: '0.00000022', image: '0', request: '0', input_cache_read: '0' });
    for (const m of data) {
      for (const price of Object.values(m.pricing)) expect(price).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
      expect(m).not.toHaveProperty('quantization');
      expect(m.max_output_length).toBeLessThanOrEqual(m.context_length);
    }
  });

  it('keeps retired models with their deprecation date and omits the key on the others', async () => {
    const { data } = await server.client('none').GET('/inference/router/gateway/models');
    expect(data.find((m) => m.id === 'deepseek-ai/DeepSeek-R1-0528')?.deprecation_date).toBe('2026-03-12');
    expect(data.find((m) => m.id === 'zai-org/GLM-5-FP8')).not.toHaveProperty('deprecation_date');
  });

  it('answers 304 to a router that sends back the ETag', async () => {
    const first = await fetch(`${server.url}/inference/router/gateway/models`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toContain('max-age');
    const again = await fetch(`${server.url}/inference/router/gateway/models`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});

describe('MODELS_FILE', () => {
  const catalogue = JSON.parse(readFileSync(new URL('../../../packages/core/catalogue/models.json', import.meta.url), 'utf8')) as {
    models: Array<Record<string, unknown>>;
  };
  const dir = mkdtempSync(join(tmpdir(), 'weft-models-'));

  it('replaces the catalogue', async () => {
    const file = join(dir, 'one.json');
    writeFileSync(file, JSON.stringify({ models: [catalogue.models[0]] }));
    const custom = await startTestServer('sqlite', { MODELS_FILE: file });
    try {
      const { data } = await custom.client('none').GET('/inference/router/gateway/models');
      expect(data.map((m) => m.id)).toEqual([catalogue.models[0]!.id]);
    } finally {
      await custom.close();
    }
  });

  it('stops the server at start when a price is not a plain decimal', async () => {
    const file = join(dir, 'bad.json');
    const bad = structuredClone(catalogue.models[0]!) as { pricing: Record<string, string> };
    bad.pricing.prompt = '2.2e-7';
    writeFileSync(file, JSON.stringify({ models: [bad] }));
    await expect(startTestServer('sqlite', { MODELS_FILE: file })).rejects.toThrow(/2\.2e-7/);
  });
});

describe('If-None-Match', () => {
  it('answers 304 for a list containing the ETag, a weak form of it, or *; 200 otherwise', async () => {
    const etag = (await fetch(`${server.url}/inference/router/gateway/models`)).headers.get('etag')!;
    const status = async (value: string) =>
      (await fetch(`${server.url}/inference/router/gateway/models`, { headers: { 'if-none-match': value } })).status;
    expect(await status(`"old", ${etag}`)).toBe(304);
    expect(await status(`W/${etag}`)).toBe(304);
    expect(await status('*')).toBe(304);
    expect(await status('"something-else"')).toBe(200);
  });
});
