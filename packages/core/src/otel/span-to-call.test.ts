// One span → one call: the instrumentations' conventions for inputs, output, usage, attributes
// and threads; exceptions; long names; and the spans refused instead of stored altered.
import { describe, expect, it } from 'vitest';
import { SpanRefusal } from './any-value.ts';
import type { AnyValue } from './proto/opentelemetry/proto/common/v1/common.generated.ts';
import type { Span } from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';
import { fixtureSpan } from './span-fixture.ts';
import { spanOrigin, spanToCall } from './span-to-call.ts';

type Attr = string | number | boolean | AnyValue;

function span(attributes: Record<string, Attr> = {}, fields: Partial<Span> = {}): Span {
  return fixtureSpan({
    spanId: Buffer.from('b7ad6b7169203331', 'hex'),
    name: 'step',
    endTimeUnixNano: '1749000000250000000',
    attributes: Object.entries(attributes).map(([key, v]) => ({
      key,
      value:
        typeof v === 'string'
          ? { stringValue: v }
          : typeof v === 'boolean'
            ? { boolValue: v }
            : typeof v === 'number'
              ? Number.isInteger(v)
                ? { intValue: String(v) }
                : { doubleValue: v }
              : v,
    })),
    ...fields,
  });
}

const origin = spanOrigin(undefined, undefined);
const call = (s: Span) => {
  const c = spanToCall(s, origin, 'acme/p');
  return {
    ...c,
    attributes: JSON.parse(c.attributes),
    inputs: JSON.parse(c.inputs),
    output: JSON.parse(c.output),
    summary: JSON.parse(c.summary),
  };
};

describe('inputs and output by convention', () => {
  const messages = '[{"role":"user","content":"hi"}]';
  it.each([
    ['GenAI', { 'gen_ai.input.messages': messages, 'gen_ai.output.messages': '[{"role":"assistant","content":"yo"}]' }],
    ['GenAI (older)', { 'gen_ai.prompt': messages, 'gen_ai.completion': '[{"role":"assistant","content":"yo"}]' }],
    ['OpenInference', { 'input.value': messages, 'output.value': '[{"role":"assistant","content":"yo"}]' }],
    ['OpenLLMetry', { 'traceloop.entity.input': messages, 'traceloop.entity.output': '[{"role":"assistant","content":"yo"}]' }],
  ])('%s: JSON text parsed, under the key it was found', (_, attrs) => {
    const c = call(span(attrs));
    const [inKey, outKey] = Object.keys(attrs);
    expect(c.inputs).toEqual({ [inKey!]: [{ role: 'user', content: 'hi' }] });
    expect(c.output).toEqual({ [outKey!]: [{ role: 'assistant', content: 'yo' }] });
  });

  it('nested keys unflattened, indexes 0..n-1 become arrays (OpenInference messages)', () => {
    const c = call(
      span({
        'llm.input_messages.0.message.role': 'system',
        'llm.input_messages.0.message.content': 'be brief',
        'llm.input_messages.1.message.role': 'user',
        'llm.input_messages.1.message.content': 'hi',
      }),
    );
    expect(c.inputs).toEqual({
      'llm.input_messages': [{ message: { role: 'system', content: 'be brief' } }, { message: { role: 'user', content: 'hi' } }],
    });
  });

  it('the Vercel AI SDK: ai.prompt and everything under ai.response', () => {
    const c = call(span({ 'ai.prompt': '{"prompt":"hi"}', 'ai.response.text': 'yo', 'ai.response.finishReason': 'stop' }));
    expect(c.inputs).toEqual({ 'ai.prompt': { prompt: 'hi' } });
    expect(c.output).toEqual({ 'ai.response': { text: 'yo', finishReason: 'stop' } });
  });

  it('the older GenAI events when no attribute carries them: prompt/completion, messages and choices', () => {
    const event = (name: string, attrs: Record<string, string>) => ({
      timeUnixNano: '1749000000100000000',
      name,
      attributes: Object.entries(attrs).map(([key, stringValue]) => ({ key, value: { stringValue } })),
      droppedAttributesCount: 0,
    });
    const older = call(
      span(
        {},
        {
          events: [
            event('gen_ai.content.prompt', { 'gen_ai.prompt': '[{"role":"user","content":"hi"}]' }),
            event('gen_ai.content.completion', { 'gen_ai.completion': 'yo' }),
          ],
        },
      ),
    );
    expect(older.inputs).toEqual({ 'gen_ai.prompt': [{ role: 'user', content: 'hi' }] });
    expect(older.output).toEqual({ 'gen_ai.completion': 'yo' });
    const perMessage = call(
      span(
        { 'gen_ai.system': 'openai' },
        {
          events: [
            event('gen_ai.system.message', { content: 'be brief' }),
            event('gen_ai.user.message', { content: 'hi' }),
            event('gen_ai.choice', { index: '0', finish_reason: 'stop', message: '{"content":"yo"}' }),
          ],
        },
      ),
    );
    expect(perMessage.inputs).toEqual({
      'gen_ai.input.messages': [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(perMessage.output).toEqual({ 'gen_ai.output.messages': [{ index: '0', finish_reason: 'stop', message: { content: 'yo' } }] });
    expect(perMessage.attributes.otel_span.events[2].attributes.message).toBe('{"content":"yo"}');
    // Attributes win over events; Weave's flattened event keys are read as attributes.
    const both = call(
      span(
        { 'input.value': 'from attributes', 'events.gen_ai.choice': 'c' },
        { events: [event('gen_ai.user.message', { content: 'hi' })] },
      ),
    );
    expect(both.inputs).toEqual({ 'input.value': 'from attributes' });
    expect(both.output).toEqual({ 'events.gen_ai.choice': 'c' });
  });

  it('the first convention present wins; plain text stays text; nothing present gives {} and null', () => {
    expect(call(span({ 'input.value': 'second', 'gen_ai.input.messages': 'first' })).inputs).toEqual({ 'gen_ai.input.messages': 'first' });
    expect(call(span({ 'input.value': '{not json' })).inputs).toEqual({ 'input.value': '{not json' });
    const empty = call(span({ other: 'x' }));
    expect(empty.inputs).toEqual({});
    expect(empty.output).toBeNull();
  });
});

describe('usage, attributes and threads', () => {
  it.each([
    [
      'GenAI',
      { 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 4 },
      { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
    ],
    [
      'OpenInference',
      { 'llm.token_count.prompt': 10, 'llm.token_count.completion': 4, 'llm.token_count.total': 15 },
      { prompt_tokens: 10, completion_tokens: 4, total_tokens: 15 },
    ],
    ['AI SDK 5+', { 'ai.usage.inputTokens': 10, 'ai.usage.outputTokens': 4 }, { input_tokens: 10, output_tokens: 4, total_tokens: 14 }],
  ])('%s token counts into summary.usage[model]', (_, attrs, usage) => {
    const c = call(span({ 'gen_ai.request.model': 'gpt-4o', ...attrs }));
    expect(c.summary).toEqual({ usage: { 'gpt-4o': usage } });
    expect(c.attributes.model).toBe('gpt-4o');
  });

  it('a token count that is not a count refuses the span', () => {
    expect(() => call(span({ 'gen_ai.usage.input_tokens': -1 }))).toThrow(SpanRefusal);
    expect(() => call(span({ 'gen_ai.usage.input_tokens': 'many' }))).toThrow(/not a token count/);
  });

  it('model, provider, parameters, kind, display name, thread and turn', () => {
    const c = call(
      span({
        'gen_ai.response.model': 'gpt-4o-2024',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.temperature': 0.5,
        'openinference.span.kind': 'LLM',
        'wandb.display_name': 'My call',
        'session.id': 'sess-1',
        'wandb.is_turn': true,
      }),
    );
    expect(c.attributes).toMatchObject({
      model: 'gpt-4o-2024',
      provider: 'openai',
      kind: 'LLM',
      model_parameters: { model: 'gpt-4o', temperature: 0.5 },
    });
    expect(c).toMatchObject({ display_name: 'My call', thread_id: 'sess-1', turn_id: 'b7ad6b7169203331' });
    expect(call(span({ 'gen_ai.conversation.id': 'conv', 'session.id': 'sess' })).thread_id).toBe('conv');
  });

  it('keeps every raw attribute, a "__proto__" key included, as sent', () => {
    const c = call(span({ ['__proto__']: 'x', 'a.b': 1, 'gen_ai.input.messages': '[1]' }));
    expect(Object.keys(c.attributes.otel_span.attributes)).toEqual(['__proto__', 'a.b', 'gen_ai.input.messages']);
    expect(c.attributes.otel_span.attributes['gen_ai.input.messages']).toBe('[1]');
  });

  it('nesting a convention does not rewrite the raw attributes kept as sent', () => {
    const kv = (values: Record<string, AnyValue>): AnyValue => ({
      kvlistValue: { values: Object.entries(values).map(([key, value]) => ({ key, value })) },
    });
    const meta = kv({ x: kv({ '0': { stringValue: 'a' } }) });
    const c = call(span({ 'ai.response.meta': meta, 'ai.response.meta.extra': 'e', 'ai.response.text': 'yo' }));
    expect(c.output).toEqual({ 'ai.response': { meta: { x: ['a'], extra: 'e' }, text: 'yo' } });
    expect(c.attributes.otel_span.attributes['ai.response.meta']).toEqual({ x: { '0': 'a' } });
  });
});

describe('exceptions, names and refusals', () => {
  it('status ERROR: the message enriched by exception events; without words still an error', () => {
    const events = [
      {
        timeUnixNano: '1749000000100000000',
        name: 'exception',
        attributes: [
          { key: 'exception.type', value: { stringValue: 'ValueError' } },
          { key: 'exception.message', value: { stringValue: 'bad input' } },
          { key: 'exception.stacktrace', value: { stringValue: 'at f (a.ts:1)' } },
        ],
        droppedAttributesCount: 0,
      },
    ];
    const c = call(span({}, { status: { code: 2, message: 'tool failed' }, events }));
    expect(c.exception).toBe('tool failed\nValueError: bad input\nat f (a.ts:1)');
    expect(call(span({}, { status: { code: 2, message: '' } })).exception).toMatch(/Error/);
    expect(call(span({}, { status: { code: 1, message: '' }, events })).exception).toBeNull();
  });

  it('an exception event adds whatever it tells beyond the status message', () => {
    const event = (attrs: Record<string, string>) => ({
      timeUnixNano: '1749000000100000000',
      name: 'exception',
      attributes: Object.entries(attrs).map(([key, stringValue]) => ({ key, value: { stringValue } })),
      droppedAttributesCount: 0,
    });
    const exception = (message: string, attrs: Record<string, string>) =>
      call(span({}, { status: { code: 2, message }, events: [event(attrs)] })).exception;
    expect(exception('', { 'exception.type': 'TimeoutError' })).toBe('TimeoutError');
    expect(exception('', { 'exception.message': 'took too long' })).toBe('took too long');
    expect(exception('bad input', { 'exception.type': 'ValueError', 'exception.message': 'bad input' })).toBe(
      'bad input\nValueError: bad input',
    );
    expect(exception('bad input', { 'exception.message': 'bad input' })).toBe('bad input');
  });

  it('names past 128 characters are shortened, stay apart, and the same name gives the same op', () => {
    const a = call(span({}, { name: 'a'.repeat(200) })).op_name;
    const b = call(span({}, { name: `${'a'.repeat(199)}b` })).op_name;
    expect(a).toHaveLength(128);
    expect(a).not.toBe(b);
    expect(call(span({}, { name: 'a'.repeat(200) })).op_name).toBe(a);
    expect(call(span({}, { name: 'x'.repeat(128) })).op_name).toBe('x'.repeat(128));
  });

  it('a shortened name never splits a character outside the BMP', () => {
    for (const pad of [121, 122]) {
      const name = `${'a'.repeat(pad)}${'😀'.repeat(10)}`;
      const op = call(span({}, { name })).op_name;
      expect(() => encodeURIComponent(op)).not.toThrow(); // throws on a lone surrogate
      expect(op.length).toBeLessThanOrEqual(128);
      expect(name.startsWith(op.slice(0, op.lastIndexOf(':')))).toBe(true);
    }
  });

  it.each<[string, Partial<Span>, Record<string, Attr>, RegExp]>([
    ['an empty name', { name: '' }, {}, /name is empty/],
    ['a short span id', { spanId: Buffer.from('abcd', 'hex') }, {}, /span_id must be 8 bytes/],
    ['an all-zero trace id', { traceId: Buffer.alloc(16) }, {}, /all zeros/],
    ['no start time', { startTimeUnixNano: '0' }, {}, /start_time_unix_nano is missing/],
    ['an end before the start', { endTimeUnixNano: '1748999999000000000' }, {}, /ends before it starts/],
    [
      'an end 1 ns before the start',
      { startTimeUnixNano: '1749000000000000002', endTimeUnixNano: '1749000000000000001' },
      {},
      /ends before/,
    ],
    ['NaN', {}, { x: { doubleValue: Number.NaN } }, /NaN cannot be stored/],
    ['an integer past 2^53', {}, { x: { intValue: '9007199254740993' } }, /beyond ±2\^53/],
    ['U+0000 in a value', {}, { x: 'a\u0000b' }, /U\+0000/],
    ['a lone surrogate in the name', { name: 'a\ud800' }, {}, /unpaired surrogate/],
  ])('refuses %s', (_, fields, attrs, message) => {
    expect(() => spanToCall(span(attrs, fields), origin, 'acme/p')).toThrow(message);
  });
});
