import { describe, expect, it } from 'vitest';
import { applyEvent, emptyStream, errorDetailOf, StreamProtocolError, type StreamState } from './chat-stream.ts';

const chunk = (choices: unknown[], extra: object = {}) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm/one',
    provider: 'p-eu',
    choices,
    usage: null,
    ...extra,
  });

const feed = (events: string[]): StreamState => events.reduce(applyEvent, emptyStream());

describe('the streamed answer', () => {
  it('accumulates text deltas, the finish reason, usage with cost, and the serving model and provider', () => {
    const s = feed([
      chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: 'Weft is' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: ' a trace store.' }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      chunk([], { usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13, cost: 0.0000022 } }),
      '[DONE]',
    ]);
    expect(s.choices).toEqual([
      { index: 0, role: 'assistant', content: 'Weft is a trace store.', reasoning: '', refusal: '', tool_calls: [], finish_reason: 'stop' },
    ]);
    expect(s.usage).toEqual({ prompt_tokens: 9, completion_tokens: 4, total_tokens: 13, cost: 0.0000022 });
    expect([s.model, s.provider, s.done, s.error]).toEqual(['m/one', 'p-eu', true, undefined]);
  });

  it('counts output only once text arrives (an empty role delta is not the first token)', () => {
    const first = applyEvent(emptyStream(), chunk([{ index: 0, delta: { role: 'assistant', content: '' } }]));
    expect(first.hasOutput).toBe(false);
    expect(applyEvent(first, chunk([{ index: 0, delta: { content: 'H' } }])).hasOutput).toBe(true);
    expect(applyEvent(first, chunk([{ index: 0, delta: { reasoning_content: 'think' } }])).hasOutput).toBe(true);
  });

  it('joins tool-call argument pieces by index, across interleaved calls', () => {
    const s = feed([
      chunk([
        {
          index: 0,
          delta: {
            role: 'assistant',
            tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }],
          },
        },
      ]),
      chunk([
        { index: 0, delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"tz"' } }] } },
      ]),
      chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] } }]),
      chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] } }]),
      chunk([{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: ':"UTC"}' } }] }, finish_reason: 'tool_calls' }]),
    ]);
    expect(s.choices[0]!.tool_calls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"tz":"UTC"}' } },
    ]);
    expect(s.choices[0]!.finish_reason).toBe('tool_calls');
    expect(s.done).toBe(false);
  });

  it('keeps n choices apart, in index order whatever order they arrive in', () => {
    const s = feed([
      chunk([{ index: 1, delta: { content: 'B' } }]),
      chunk([{ index: 0, delta: { content: 'A' } }]),
      chunk([
        { index: 0, delta: { content: '1' } },
        { index: 1, delta: { content: '2' } },
      ]),
    ]);
    expect(s.choices.map((c) => [c.index, c.content])).toEqual([
      [0, 'A1'],
      [1, 'B2'],
    ]);
  });

  it('does not change the state it was given (each event renders a new value)', () => {
    const before = feed([chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{' } }] } }])]);
    const snapshot = JSON.stringify(before);
    applyEvent(before, chunk([{ index: 0, delta: { content: 'x', tool_calls: [{ index: 0, function: { arguments: '}' } }] } }]));
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  it('takes an error event after the first chunk as the run’s error, keeping the text so far', () => {
    const s = feed([
      chunk([{ index: 0, delta: { content: 'Partial' } }]),
      JSON.stringify({ error: { message: 'upstream closed the stream', type: 'upstream_error', param: null, code: 'stream_interrupted' } }),
    ]);
    expect(s.choices[0]!.content).toBe('Partial');
    expect(s.error).toEqual({ message: 'upstream closed the stream', type: 'upstream_error', param: null, code: 'stream_interrupted' });
    expect(s.done).toBe(false);
  });

  it('refuses an event that is not JSON rather than showing a wrong answer', () => {
    expect(() => applyEvent(emptyStream(), '{"choices": [')).toThrow(StreamProtocolError);
  });
});

describe('error bodies', () => {
  it('reads OpenAI’s shape, Weft’s own, and plain text, into one shape', () => {
    const openai = { error: { message: 'model "x" not found', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } };
    expect(errorDetailOf(openai, 404)).toEqual(openai.error);
    expect(errorDetailOf({ reason: 'Not implemented', error_type: 'NotImplemented' }, 501)).toEqual({
      message: 'Not implemented',
      type: 'NotImplemented',
      param: null,
      code: null,
    });
    expect(errorDetailOf('Bad gateway', 502).message).toBe('Bad gateway');
    expect(errorDetailOf(undefined, 502).message).toBe('The server answered 502');
  });
});
