import { afterEach, describe, expect, it } from 'vitest';
import { decodeFloat32 } from './upstream/embedding-format.ts';
import { embeddings, float32Base64 } from './testing/fake-upstream.ts';
import { startHarness, type Harness } from './testing/router-harness.ts';

let h: Harness;
afterEach(() => h?.close());

const signal = () => new AbortController().signal;
const vector = [0.1, -0.2, 3.5];

describe('createRouter: embeddings', () => {
  it('encodes float answers as base64 float32 when the caller asked base64', async () => {
    h = await startHarness({ pricing: { prompt: '0.00000002' } });
    h.a.script({
      kind: 'json',
      body: embeddings([vector, [1, 2, 3]], { usage: { prompt_tokens: 7, completion_tokens: 0, total_tokens: 7 } }),
    });
    const out = await h.router.embeddings({ model: 'e', input: ['a', 'b'], encoding_format: 'base64' }, { signal: signal() });
    expect(out.body.model).toBe('e');
    expect(out.body.provider).toBe('a');
    expect(out.body.data[0]!.embedding).toBe(float32Base64(vector));
    expect(decodeFloat32(out.body.data[1]!.embedding as string)).toEqual([1, 2, 3]);
    expect(out.priced?.cost_usd).toBe('0.00000014');
    expect(out.body.usage.cost).toBe(0.00000014);
    const rec = await h.a.request(0);
    expect(rec.path).toBe('/v1/embeddings');
    expect(rec.body).toEqual({ model: 'a-embedder', input: ['a', 'b'], encoding_format: 'base64' });
  });

  it('decodes base64 answers when the caller asked floats', async () => {
    h = await startHarness();
    const body = embeddings([[0]]);
    (body.data as { embedding: unknown }[])[0]!.embedding = float32Base64([0.5, -1]);
    h.a.script({ kind: 'json', body });
    const out = await h.router.embeddings({ model: 'e', input: 'a' }, { signal: signal() });
    expect(out.body.data[0]!.embedding).toEqual([0.5, -1]);
  });

  it('retries a failed embeddings call', async () => {
    h = await startHarness();
    h.a.script({ kind: 'error', status: 503 });
    const out = await h.router.embeddings({ model: 'e', input: 'a' }, { signal: signal() });
    expect(out.attempts.map((x) => x.outcome)).toEqual(['status_5xx', 'ok']);
    expect(h.sleeps).toHaveLength(1);
  });
});
