import { afterEach, describe, expect, it } from 'vitest';
import type { ChatOutcome } from './types.ts';
import { testRouterConfig, textChunks } from './testing/fake-upstream.ts';
import { drain, startHarness, type Harness } from './testing/router-harness.ts';

let h: Harness;
afterEach(() => h?.close());

const signal = () => new AbortController().signal;
const ask = (extra: Record<string, unknown> = {}) => ({ model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], ...extra });

describe('createRouter: health and reload', () => {
  it('takes a rate-limited endpoint out of rotation, then probes it back after the cooldown', async () => {
    let t = 1_000_000;
    h = await startHarness({ now: () => t, routing: { cooldown_ms: 5000, max_retry_after_ms: 1000 } });
    h.a.script({ kind: 'error', status: 429, retry_after: '60' });
    expect((await h.router.chat(ask(), { signal: signal() })).served.provider).toBe('b');
    expect(h.router.endpoints().find((e) => e.model === 'm' && e.provider === 'a')).toMatchObject({ state: 'cooling_down', errors: 1 });

    const during = await h.router.chat(ask(), { signal: signal() });
    expect(during.attempts.map((x) => x.provider)).toEqual(['b']);
    expect(h.a.requests).toHaveLength(1);

    t += 5001;
    const after = await h.router.chat(ask(), { signal: signal() });
    expect(after.served.provider).toBe('a');
    expect(h.router.endpoints().find((e) => e.model === 'm' && e.provider === 'a')).toMatchObject({ state: 'ok', requests: 2 });
  });

  it('serves GET /models entries from the config', async () => {
    h = await startHarness();
    expect(h.router.models().map((m) => m.id)).toEqual(['m', 'e']);
  });

  it('finishes a stream in flight on the old config after a reload; new requests use the new one', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stream', items: [textChunks(['old'])[0]!, { hold: true }, ...textChunks(['old']).slice(1)] });
    const out = (await h.router.chat(ask({ stream: true }), { signal: signal() })) as Extract<ChatOutcome, { kind: 'stream' }>;
    await h.a.holding();
    const next = testRouterConfig({
      providers: [{ id: 'b', base_url: h.b.base_url, api_key_env: 'KEY_B' }],
      models: [{ id: 'm', endpoints: [{ provider: 'b', model: 'b-model' }] }],
    });
    h.router.reload(next);
    expect(h.router.config).toBe(next);
    expect(h.router.models().map((m) => m.id)).toEqual(['m']);
    const fresh = await h.router.chat(ask(), { signal: signal() });
    expect(fresh.served.provider).toBe('b');
    h.a.release();
    const events = await drain(out.events);
    expect(events.at(-1)).toBe('[DONE]');
    expect((await out.result).completion.choices[0]!.message.content).toBe('old');
    expect(h.router.endpoints().map((e) => e.provider)).toEqual(['b']);
  });
});
