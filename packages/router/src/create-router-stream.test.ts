import { afterEach, describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, ChatOutcome } from './types.ts';
import { chunk, delta, textChunks, toolCallChunks, usageOf, type StreamItem } from './testing/fake-upstream.ts';
import { KEY_A, drain, startHarness, type Harness } from './testing/router-harness.ts';

let h: Harness;
afterEach(() => h?.close());

const ask = (extra: Record<string, unknown> = {}) => ({
  model: 'm',
  messages: [{ role: 'user' as const, content: 'hi' }],
  stream: true,
  ...extra,
});

const stream = async (extra: Record<string, unknown> = {}, signal = new AbortController().signal) => {
  const out: ChatOutcome = await h.router.chat(ask(extra), { signal });
  if (out.kind !== 'stream') throw new Error('expected a stream');
  return out;
};

type Sent = ChatCompletionChunk & { choices: { delta: { content?: string } }[] };
const parse = (events: string[]) => events.filter((e) => e !== '[DONE]').map((e) => JSON.parse(e) as Sent);
const text = (chunks: Sent[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe('createRouter: streamed chat', () => {
  it('relays chunks rewritten, hides the usage chunk it asked for, and prices it', async () => {
    h = await startHarness({ pricing: { prompt: '0.000001', completion: '0.000002' } });
    h.a.script({ kind: 'stream', items: textChunks(['Hel', 'lo']), usage: usageOf(10, 2) });
    const out = await stream();
    const events = await drain(out.events);
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = parse(events);
    expect(chunks).toHaveLength(4);
    expect(chunks.every((c) => c.model === 'm' && c.provider === 'a' && c.choices.length > 0)).toBe(true);
    expect(text(chunks)).toBe('Hello');
    const rec = await h.a.request(0);
    expect(rec.body).toMatchObject({ model: 'a-model', stream: true, stream_options: { include_usage: true } });
    const result = await out.result;
    expect(result.error).toBeUndefined();
    expect(result.priced?.cost_usd).toBe('0.000014');
    expect(result.completion).toMatchObject({
      model: 'm',
      provider: 'a',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
    });
    expect(result.completion.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 2, cost: 0.000014 });
    expect(result.ttft_ms).toBeGreaterThanOrEqual(0);
    expect(h.attempts.at(-1)).toMatchObject({ provider: 'a', outcome: 'ok', ttft_ms: result.ttft_ms });
  });

  it('forwards the usage chunk, priced, when the caller asked for it', async () => {
    h = await startHarness({ pricing: { prompt: '0.000001', completion: '0.000002' } });
    h.a.script({ kind: 'stream', items: textChunks(['x']), usage: usageOf(10, 2) });
    const chunks = parse(await drain((await stream({ stream_options: { include_usage: true } })).events));
    expect(chunks.at(-1)).toMatchObject({ choices: [], model: 'm', usage: { prompt_tokens: 10, total_tokens: 12, cost: 0.000014 } });
  });

  it('re-frames events cut across network writes, and skips comment lines', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stream', items: [{ raw: ': OPENROUTER PROCESSING\n\n' }, ...textChunks(['a', 'b', 'c'])], split_events: true });
    const chunks = parse(await drain((await stream()).events));
    expect(text(chunks)).toBe('abc');
  });

  it('accumulates parallel tool calls by index', async () => {
    h = await startHarness();
    const calls = [
      { id: 'call_1', name: 'weather', fragments: ['{"city"', ':"Paris"}'] },
      { id: 'call_2', name: 'time', fragments: ['{"tz":', '"CET"', '}'] },
    ];
    h.a.script({ kind: 'stream', items: toolCallChunks(calls) });
    const out = await stream();
    const events = await drain(out.events);
    expect(events.at(-1)).toBe('[DONE]');
    const { completion } = await out.result;
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'time', arguments: '{"tz":"CET"}' } },
    ]);
  });

  it('accumulates n > 1 choices and their logprobs', async () => {
    h = await startHarness();
    const lp = (token: string) => ({ content: [{ token, logprob: -0.5, bytes: null, top_logprobs: [] }], refusal: null });
    h.a.script({
      kind: 'stream',
      items: [
        chunk([delta(0, { role: 'assistant', content: 'A' }, null, lp('A')), delta(1, { role: 'assistant', content: 'B' }, null, lp('B'))]),
        chunk([delta(1, { content: 'b' }, null, lp('b'))]),
        chunk([delta(0, { content: 'a' }, null, lp('a'))]),
        chunk([delta(0, {}, 'stop'), delta(1, {}, 'length')]),
      ],
    });
    const out = await stream({ n: 2, logprobs: true });
    await drain(out.events);
    const { completion } = await out.result;
    expect(completion.choices.map((c) => [c.index, c.message.content, c.finish_reason])).toEqual([
      [0, 'Aa', 'stop'],
      [1, 'Bb', 'length'],
    ]);
    expect((completion.choices[1]!.logprobs as { content: { token: string }[] }).content.map((t) => t.token)).toEqual(['B', 'b']);
  });

  it('never retries after the first event: a cut stream ends with one error event', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stream', items: textChunks(['a', 'b']).slice(0, 2), end: 'destroy' });
    const out = await stream();
    const events = await drain(out.events);
    expect(events).toHaveLength(3);
    expect(JSON.parse(events.at(-1)!)).toEqual({
      error: expect.objectContaining({ type: 'upstream_error', code: expect.any(String), param: null }),
    });
    expect((await out.result).error?.code).toMatch(/upstream_error|upstream_incomplete/);
    expect(h.b.requests).toHaveLength(0);
  });

  it('ends with an error event when the upstream ends without finishing', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stream', items: textChunks(['a']).slice(0, 2), end: 'eof' });
    const out = await stream();
    const events = await drain(out.events);
    expect(JSON.parse(events.at(-1)!).error.code).toBe('upstream_incomplete');
    const result = await out.result;
    expect(result.completion.choices[0]!.message.content).toBe('a');
    expect(result.error?.code).toBe('upstream_incomplete');
  });

  it('ends cleanly when every choice finished even without [DONE]', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stream', items: textChunks(['a']), end: 'eof' });
    const out = await stream();
    expect((await drain(out.events)).at(-1)).toBe('[DONE]');
    expect((await out.result).error).toBeUndefined();
  });

  it('ends with an error event after an idle gap, and the upstream sees the close', async () => {
    h = await startHarness({ providers: { a: { timeouts: { idle_ms: 150 } } } });
    h.a.script({ kind: 'stream', items: [...textChunks(['a']).slice(0, 2), { hold: true }] });
    const out = await stream();
    const events = await drain(out.events);
    expect(JSON.parse(events.at(-1)!).error).toMatchObject({ type: 'timeout_error', code: 'upstream_timeout' });
    await (
      await h.a.request(0)
    ).closed;
    expect(h.attempts.at(-1)).toMatchObject({ provider: 'a', outcome: 'timeout' });
  });

  it('passes an upstream error event on as one error event, key redacted', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stream', items: [...textChunks(['a']).slice(0, 2), { error: { message: `quota for ${KEY_A}`, type: 'x' } }] });
    const events = await drain((await stream()).events);
    const last = JSON.parse(events.at(-1)!).error;
    expect(last.message).toContain('quota for [redacted]');
    expect(events.join('')).not.toContain(KEY_A);
  });

  it('falls back when a stream stalls before its first event', async () => {
    h = await startHarness({ providers: { a: { timeouts: { first_byte_ms: 150 } } }, routing: { retries: 0 } });
    h.a.script({ kind: 'stream', items: [{ hold: true }] });
    h.b.script({ kind: 'stream', items: textChunks(['from b']) });
    const out = await stream();
    expect(out.served.provider).toBe('b');
    expect(out.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'timeout'],
      ['b', 'ok'],
    ]);
    expect(parse(await drain(out.events))[1]!.choices[0]!.delta.content).toBe('from b');
  });

  it('aborts the upstream when the consumer stops iterating', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stream', items: [...textChunks(['a']).slice(0, 2), { hold: true }] });
    const out = await stream();
    for await (const _ of out.events) break;
    const rec = await h.a.request(0);
    await rec.closed;
    expect((await out.result).error?.code).toBe('client_disconnected');
  });

  it('aborts the upstream when the call signal aborts mid-stream, while a read is pending', async () => {
    h = await startHarness();
    h.a.script({ kind: 'stream', items: [...textChunks(['a']).slice(0, 2), { hold: true }] });
    const ac = new AbortController();
    const out = await stream({}, ac.signal);
    const it = out.events[Symbol.asyncIterator]();
    await it.next();
    await it.next();
    const pending = it.next();
    await h.a.holding();
    ac.abort();
    await (
      await h.a.request(0)
    ).closed;
    expect(await pending).toEqual({ done: true, value: undefined });
    expect((await out.result).error?.code).toBe('client_disconnected');
  });

  it('reads the upstream only as fast as the events are consumed', async () => {
    h = await startHarness();
    const big = 'x'.repeat(32 * 1024);
    const items: StreamItem[] = [chunk([delta(0, { role: 'assistant', content: '' })])];
    for (let i = 0; i < 500; i++) items.push(chunk([delta(0, { content: big })]));
    items.push(chunk([delta(0, {}, 'stop')]));
    h.a.script({ kind: 'stream', items });
    const out = await stream();
    const it = out.events[Symbol.asyncIterator]();
    await it.next();
    const rec = await h.a.request(0);
    // The upstream stops being able to write while nobody pulls: socket buffers hold some events,
    // never the whole answer (a relay that read ahead would have taken all of it).
    const written = await Promise.race([rec.stuck(200), rec.done.then(() => rec.events_written)]);
    expect(written).toBeLessThan(250);
    let n = 1;
    for (let r = await it.next(); r.done !== true; r = await it.next()) n++;
    expect(n).toBe(items.length + 1);
    expect(rec.events_written).toBe(items.length);
  });
});
