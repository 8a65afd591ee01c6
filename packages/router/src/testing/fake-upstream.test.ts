import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, textChunks, usageOf, type FakeUpstream } from './fake-upstream.ts';

let up: FakeUpstream;
beforeEach(async () => void (up = await startFakeUpstream()));
afterEach(() => up.close());

const post = (path: string, body: unknown, signal?: AbortSignal) =>
  fetch(`${up.base_url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });

describe('fake upstream', () => {
  it('answers normally by default and records the request', async () => {
    const res = await post('/chat/completions', { model: 'm', messages: [] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Hello');
    const rec = await up.request(0);
    expect(rec.path).toBe('/v1/chat/completions');
    expect(rec.headers.authorization).toBe('Bearer k');
    expect(rec.body).toEqual({ model: 'm', messages: [] });
  });

  it('fails as scripted, with Retry-After', async () => {
    up.script({ kind: 'error', status: 429, retry_after: '2' });
    const res = await post('/chat/completions', {});
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
  });

  it('streams, with the usage chunk only when asked', async () => {
    const step = { kind: 'stream', items: textChunks(['a', 'b']), usage: usageOf(3, 2) } as const;
    up.script(step, step);
    const without = await (await post('/chat/completions', { stream: true })).text();
    expect(without.match(/^data: /gm)).toHaveLength(5);
    const withUsage = await (await post('/chat/completions', { stream: true, stream_options: { include_usage: true } })).text();
    expect(withUsage).toContain('"prompt_tokens":3');
    expect(withUsage.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('sees the client close while stalled mid-stream', async () => {
    up.script({ kind: 'stream', items: [...textChunks(['a']).slice(0, 2), { hold: true }] });
    const ac = new AbortController();
    const res = await post('/chat/completions', { stream: true }, ac.signal);
    const reader = res.body!.getReader();
    await reader.read();
    await up.holding();
    ac.abort();
    const rec = await up.request(0);
    await rec.closed;
    expect(rec.client_closed).toBe(true);
  });

  it('sees the client close while stalled before the first byte', async () => {
    up.script({ kind: 'stall' });
    const ac = new AbortController();
    const pending = post('/chat/completions', {}, ac.signal).catch((e: unknown) => e);
    const rec = await up.request(0);
    ac.abort();
    await rec.closed;
    expect(await pending).toBeInstanceOf(Error);
  });
});
