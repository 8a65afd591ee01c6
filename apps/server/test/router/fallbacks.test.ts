// Failures as the `openai` client sees them through Weft's router: before the first byte the next
// endpoint (or `models` fallback) serves; after it nothing is retried and the client gets an error
// event; a final failure is OpenAI's status and shape with Retry-After, and `x-should-retry: false`
// when the router's own fallbacks are spent; a client that goes away closes the upstream.
import { request } from 'node:http';
import { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chunk, delta, textChunks } from '@weft/router/testing';
import { startRouterKit, type RouterKit } from './router-kit.ts';

let fresh = 0;
/** A router model no test used before: `pair` (a, then b) or `solo` (a alone). */
const model = (kind: 'pair' | 'solo') => `${kind}-${fresh++}`;

const messages = [{ role: 'user' as const, content: 'Say hello' }];

async function failure(call: Promise<unknown>): Promise<APIError> {
  const outcome = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome, 'the call should have failed').toBeInstanceOf(APIError);
  return outcome as APIError;
}

describe('fallbacks and failures through the router', () => {
  let kit: RouterKit;
  beforeAll(async () => {
    // A stall before the first byte gives up after 300 ms (the providers' first-byte timeout).
    kit = await startRouterKit({ timeouts: { first_byte_ms: 300, idle_ms: 300 }, freshModels: 20 });
  });
  afterAll(async () => kit?.close());

  const failures = [
    { name: '429', step: { kind: 'error', status: 429, retry_after: '0' } },
    { name: '500', step: { kind: 'error', status: 500 } },
    { name: '503', step: { kind: 'error', status: 503 } },
    { name: 'a stall before the first byte', step: { kind: 'stall' } },
    { name: 'a socket cut before the answer', step: { kind: 'destroy' } },
  ] as const;

  for (const { name, step } of failures) {
    test(`${name} from the first endpoint: the second serves a whole answer`, async () => {
      kit.a.script(step);
      const whole = await kit.openai().chat.completions.create({ model: model('pair'), messages });
      expect((whole as unknown as { provider: string }).provider).toBe('b');
    });

    test(`${name} from the first endpoint: the second serves a stream`, async () => {
      kit.a.script(step);
      kit.b.script({ kind: 'stream', items: textChunks(['from ', 'b']) });
      const stream = await kit.openai().chat.completions.create({ model: model('pair'), messages, stream: true });
      let text = '';
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
      expect(text).toBe('from b');
    });
  }

  test('`models` fallbacks: the next model serves when the first has no endpoint left', async () => {
    kit.a.script({ kind: 'error', status: 503 });
    const before = kit.b.requests.length;
    const fallback = model('pair');
    const answer = await kit.openai().chat.completions.create({ model: model('solo'), messages, models: [fallback] } as never);
    expect(answer.model).toBe(fallback);
    // Its first endpoint (a) is the one that just failed for the other model; it serves this one.
    expect(kit.a.requests.at(-1)!.body).toMatchObject({ model: 'a-chat' });
    expect(kit.b.requests.length).toBe(before);
  });

  test('a 429 everywhere: 429 rate_limit_error with Retry-After, which the client reads', async () => {
    kit.a.script({ kind: 'error', status: 429, retry_after: '7' });
    const error = await failure(kit.openai().chat.completions.create({ model: model('solo'), messages }));
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ type: 'rate_limit_error' });
    expect(error.headers?.get('retry-after')).toBe('7');
  });

  test("a 503 everywhere: the router's 502 upstream_error, with the upstream's Retry-After for the client to wait", async () => {
    kit.a.script({ kind: 'error', status: 503, retry_after: '3' });
    const error = await failure(kit.openai().chat.completions.create({ model: model('solo'), messages }));
    expect(error.status).toBe(502);
    expect(error.error).toMatchObject({ type: 'upstream_error', code: 'upstream_unavailable' });
    expect(error.headers?.get('retry-after')).toBe('3');
    // With a Retry-After the client may retry after it: no x-should-retry: false.
    expect(error.headers?.get('x-should-retry')).toBeNull();
  });

  test('a final 5xx without Retry-After says x-should-retry: false, so the client does not multiply the fallbacks', async () => {
    kit.a.setDefault({ kind: 'error', status: 500 });
    try {
      const before = kit.a.requests.length;
      // The client would retry a 500 twice; x-should-retry: false stops it after one request.
      const error = await failure(kit.openai({ maxRetries: 2 }).chat.completions.create({ model: model('solo'), messages }));
      expect(error.status).toBeGreaterThanOrEqual(500);
      expect(error.headers?.get('x-should-retry')).toBe('false');
      expect(error.error).toMatchObject({ message: expect.any(String) as string });
      expect(kit.a.requests.length - before).toBe(1);
    } finally {
      kit.a.setDefault({ kind: 'json' });
    }
  });

  test('a failure after the first byte is not retried: the client gets an error event, the second endpoint is never called', async () => {
    kit.a.script({ kind: 'stream', items: textChunks(['partial']).slice(0, 2), end: 'destroy' });
    const before = kit.b.requests.length;
    const stream = await kit.openai().chat.completions.create({ model: model('pair'), messages, stream: true });
    let text = '';
    const read = async () => {
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    };
    const error = await failure(read());
    expect(text).toBe('partial');
    expect(error.error).toMatchObject({ message: expect.any(String) as string });
    expect(kit.b.requests.length).toBe(before);
  });

  test('an upstream that goes silent mid-stream: an error event once its idle timeout passes', async () => {
    kit.a.script({ kind: 'stream', items: textChunks(['partial']).slice(0, 2), end: 'stall' });
    const stream = await kit.openai().chat.completions.create({ model: model('pair'), messages, stream: true });
    const error = await failure(
      (async () => {
        for await (const c of stream) void c;
      })(),
    );
    expect(error.error).toMatchObject({ code: 'upstream_timeout' });
  });
});

// Long provider timeouts here: the upstream's connection must close because the client left, not
// because the router gave up on a silent upstream.
describe('a client that disconnects', () => {
  let kit: RouterKit;
  beforeAll(async () => {
    kit = await startRouterKit({ timeouts: { first_byte_ms: 60_000, idle_ms: 60_000 }, freshModels: 20 });
  });
  afterAll(async () => kit?.close());

  test('mid-stream: the upstream sees its connection closed', async () => {
    kit.a.script({ kind: 'stream', items: [...textChunks(['one']).slice(0, 2), { hold: true }, ...textChunks(['two']).slice(1)] });
    const index = kit.a.requests.length;
    const controller = new AbortController();
    const stream = await kit
      .openai()
      .chat.completions.create({ model: model('pair'), messages, stream: true }, { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const upstream = await kit.a.request(index);
    await kit.a.holding();
    controller.abort();
    await upstream.closed;
    expect(upstream.client_closed).toBe(true);
  });

  test('while waiting for a whole answer: the upstream sees its connection closed', async () => {
    kit.a.script({ kind: 'stall' });
    const index = kit.a.requests.length;
    const controller = new AbortController();
    const call = kit.openai().chat.completions.create({ model: model('solo'), messages }, { signal: controller.signal });
    const upstream = await kit.a.request(index);
    controller.abort();
    await call.catch(() => undefined);
    await upstream.closed;
    expect(upstream.client_closed).toBe(true);
  });

  test('a client that stops reading: back-pressure reaches the upstream, which has to wait', async () => {
    // Megabytes of events: more than the sockets' buffers hold, so a relay that read on regardless
    // would buffer them in the server; with back-pressure the upstream's writes wait.
    const big = 'x'.repeat(1024);
    kit.a.script({ kind: 'stream', items: Array.from({ length: 4000 }, () => chunk([delta(0, { content: big })])) });
    const index = kit.a.requests.length;
    const body = JSON.stringify({ model: model('pair'), messages, stream: true });
    const url = new URL(`${kit.gateway}/chat/completions`);
    const req = request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${kit.server.aliceKey}`, 'content-type': 'application/json' },
    });
    const answered = new Promise<import('node:http').IncomingMessage>((resolve) => req.once('response', resolve));
    req.end(body);
    // The answer is never read: its socket fills up.
    const res = await answered;
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['x-accel-buffering']).toBe('no');
    const upstream = await kit.a.request(index);
    const written = await upstream.blocked;
    expect(written).toBeLessThan(4000);
    req.destroy();
    await upstream.closed;
  });
});
