import { afterEach, describe, expect, it } from 'vitest';
import { RouterError } from './router-error.ts';
import { completion, openAIError, usageOf } from './testing/fake-upstream.ts';
import { KEY_A, KEY_B, startHarness, type Harness } from './testing/router-harness.ts';

let h: Harness;
afterEach(() => h?.close());

const signal = () => new AbortController().signal;
const ask = (extra: Record<string, unknown> = {}) => ({ model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], ...extra });

const failure = async (p: Promise<unknown>): Promise<RouterError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(RouterError);
  return e as RouterError;
};

describe('createRouter: non-streamed chat', () => {
  it('answers from the first endpoint, rewritten and priced exactly', async () => {
    h = await startHarness({ pricing: { prompt: '0.00000022', input_cache_read: '0.00000011', completion: '0.00000088' } });
    h.a.script({ kind: 'json', body: completion('Hi there', { usage: usageOf(1000, 500, 200) }) });
    const out = await h.router.chat(ask({ provider: { sort: 'price' }, models: ['m'], temperature: 0.2 }), { signal: signal() });
    if (out.kind !== 'json') throw new Error('expected json');
    expect(out.body.model).toBe('m');
    expect(out.body.provider).toBe('a');
    expect(out.body.choices[0]!.message.content).toBe('Hi there');
    expect(out.priced?.cost_usd).toBe('0.000638');
    expect(out.body.usage?.cost).toBe(0.000638);
    expect(out.served).toMatchObject({ model: 'm', provider: 'a', upstream_model: 'a-model' });
    expect(out.attempts).toEqual([expect.objectContaining({ provider: 'a', outcome: 'ok', status: 200 })]);
    const rec = await h.a.request(0);
    expect(rec.path).toBe('/v1/chat/completions');
    expect(rec.headers.authorization).toBe(`Bearer ${KEY_A}`);
    // Router fields stay here; the upstream gets its own model name and the client's other fields.
    expect(rec.body).toEqual({ model: 'a-model', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 });
    expect(h.priced).toHaveLength(1);
  });

  it('waits as Retry-After says, then retries the same endpoint', async () => {
    h = await startHarness();
    h.a.script({ kind: 'error', status: 429, retry_after: '2' });
    const out = await h.router.chat(ask(), { signal: signal() });
    expect(out.served.provider).toBe('a');
    expect(h.sleeps).toEqual([2000]);
    expect(out.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'status_429'],
      ['a', 'ok'],
    ]);
  });

  it('honours retry-after-ms before retry-after', async () => {
    h = await startHarness();
    h.a.script({ kind: 'error', status: 503, retry_after: '9', retry_after_ms: '40' });
    await h.router.chat(ask(), { signal: signal() });
    expect(h.sleeps).toEqual([40]);
  });

  it('moves to the next endpoint at once when Retry-After exceeds max_retry_after_ms', async () => {
    h = await startHarness({ routing: { max_retry_after_ms: 1000 } });
    h.a.script({ kind: 'error', status: 429, retry_after: '30' });
    const out = await h.router.chat(ask(), { signal: signal() });
    expect(out.served.provider).toBe('b');
    expect(h.sleeps).toEqual([]);
    expect(h.a.requests).toHaveLength(1);
  });

  it('retries 5xx with jittered backoff, then falls back to the next endpoint', async () => {
    h = await startHarness({ routing: { retries: 2, backoff_ms: 10, max_backoff_ms: 25 } });
    h.a.script({ kind: 'error', status: 500 }, { kind: 'error', status: 503 }, { kind: 'error', status: 502 });
    const out = await h.router.chat(ask(), { signal: signal() });
    expect(out.served.provider).toBe('b');
    // random() = 0.5: half of min(max, base·2^retry).
    expect(h.sleeps).toEqual([5, 10]);
    expect(out.attempts.map((x) => x.outcome)).toEqual(['status_5xx', 'status_5xx', 'status_5xx', 'ok']);
    expect((await h.b.request(0)).headers.authorization).toBe(`Bearer ${KEY_B}`);
  });

  it('falls back on a connect error', async () => {
    h = await startHarness({ providers: { a: { base_url: 'http://127.0.0.1:1/v1' } } });
    const out = await h.router.chat(ask(), { signal: signal() });
    expect(out.served.provider).toBe('b');
    expect(out.attempts[0]).toMatchObject({ provider: 'a', outcome: 'connect' });
  });

  it('falls back when the first endpoint stalls before its first byte, and that upstream sees the close', async () => {
    h = await startHarness({ providers: { a: { timeouts: { first_byte_ms: 150 } } }, routing: { retries: 0 } });
    h.a.script({ kind: 'stall' });
    const out = await h.router.chat(ask(), { signal: signal() });
    expect(out.served.provider).toBe('b');
    expect(out.attempts[0]).toMatchObject({ provider: 'a', outcome: 'timeout' });
    const rec = await h.a.request(0);
    await rec.closed;
    expect(rec.client_closed).toBe(true);
  });

  it('falls back on an answer that is not JSON', async () => {
    h = await startHarness({ routing: { retries: 0 } });
    h.a.script({ kind: 'json', body: 'not a completion' });
    const out = await h.router.chat(ask(), { signal: signal() });
    expect(out.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'invalid_response'],
      ['b', 'ok'],
    ]);
  });

  it("answers the upstream's own 400 without trying elsewhere, with the key redacted", async () => {
    h = await startHarness();
    h.a.script({
      kind: 'error',
      status: 400,
      body: { error: { message: `bad temperature for key ${KEY_A}`, type: 'invalid_request_error', param: 'temperature', code: null } },
    });
    const e = await failure(h.router.chat(ask(), { signal: signal() }));
    expect(e.status).toBe(400);
    expect(e.param).toBe('temperature');
    expect(e.message).toContain('bad temperature');
    expect(e.message).not.toContain(KEY_A);
    expect(h.b.requests).toHaveLength(0);
  });

  it('says which endpoints failed when none answered, never a key', async () => {
    h = await startHarness({ routing: { retries: 0 } });
    h.a.script({ kind: 'error', status: 503, body: openAIError(`overloaded (${KEY_A})`) });
    h.b.script({ kind: 'error', status: 500 });
    const e = await failure(h.router.chat(ask(), { signal: signal() }));
    expect(e.toBody()).toMatchObject({ status: 502, type: 'upstream_error', code: 'upstream_unavailable' });
    expect(e.message).toMatch(/^All 2 endpoints of m failed: 503 from a: overloaded/);
    expect(e.message).toContain('500 from b');
    expect(JSON.stringify(e.toBody())).not.toMatch(/sk-test/);
  });

  it('answers 429 with Retry-After when every endpoint is rate limited', async () => {
    h = await startHarness({ routing: { retries: 0 } });
    h.a.script({ kind: 'error', status: 429, retry_after: '3' });
    h.b.script({ kind: 'error', status: 429, retry_after: '7' });
    const e = await failure(h.router.chat(ask(), { signal: signal() }));
    expect(e.status).toBe(429);
    expect(e.retry_after_sec).toBe(3);
  });

  it('refuses an unknown model before sending anything', async () => {
    h = await startHarness();
    const e = await failure(h.router.chat({ ...ask(), model: 'nope' }, { signal: signal() }));
    expect(e.status).toBe(404);
    expect(e.param).toBe('model');
    expect(h.a.requests).toHaveLength(0);
  });

  it('aborts the upstream at once when the caller signal aborts', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stall' });
    const ac = new AbortController();
    const pending = h.router.chat(ask(), { signal: ac.signal });
    const rec = await h.a.request(0);
    ac.abort();
    const e = await failure(pending);
    expect(e.code).toBe('client_disconnected');
    await rec.closed;
    expect(h.b.requests).toHaveLength(0);
  });
});
