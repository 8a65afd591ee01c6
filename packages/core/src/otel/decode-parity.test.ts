// The two OTLP encodings of one export give the same calls: protobuf (the generated codecs, lazy
// per span) and OTLP/JSON (hex ids, int64 as strings or numbers, enums as integers or names,
// snake_case field names accepted).
import { describe, expect, it } from 'vitest';
import { decodeOtlpJson, OtlpJsonError } from './decode-json.ts';
import { decodeOtlpProtobuf, readOtlpProtobuf } from './decode-protobuf.ts';
import { otlpCalls } from './otel-export.ts';
import { ExportTraceServiceRequest } from './proto/opentelemetry/proto/collector/trace/v1/trace_service.generated.ts';

const TRACE = '5b8efff798038103d269b633813fc60c';
const ROOT = 'eee19b7ec3c1b174';
const CHILD = 'eee19b7ec3c1b173';
const s = (key: string, stringValue: string) => ({ key, value: { stringValue } });

const protobufRequest: ExportTraceServiceRequest = {
  resourceSpans: [
    {
      resource: { attributes: [s('service.name', 'agent')], droppedAttributesCount: 0 },
      schemaUrl: 'https://opentelemetry.io/schemas/1.26.0',
      scopeSpans: [
        {
          scope: { name: 'genai', version: '1.2.3', attributes: [], droppedAttributesCount: 0 },
          schemaUrl: '',
          spans: [
            {
              traceId: Buffer.from(TRACE, 'hex'),
              spanId: Buffer.from(ROOT, 'hex'),
              traceState: '',
              parentSpanId: Buffer.alloc(0),
              flags: 0,
              name: 'invoke_agent',
              kind: 1,
              startTimeUnixNano: '1749000000123456789',
              endTimeUnixNano: '1749000001987654321',
              attributes: [s('gen_ai.conversation.id', 'conv-7')],
              droppedAttributesCount: 0,
              events: [],
              droppedEventsCount: 0,
              links: [],
              droppedLinksCount: 0,
              status: { code: 2, message: 'tool failed' },
            },
            {
              traceId: Buffer.from(TRACE, 'hex'),
              spanId: Buffer.from(CHILD, 'hex'),
              traceState: 'vendor=1',
              parentSpanId: Buffer.from(ROOT, 'hex'),
              flags: 1,
              name: 'chat gpt-4o',
              kind: 3,
              startTimeUnixNano: '1749000000200000000',
              endTimeUnixNano: '1749000000900000000',
              attributes: [
                s('gen_ai.request.model', 'gpt-4o'),
                { key: 'gen_ai.usage.input_tokens', value: { intValue: '12' } },
                { key: 'gen_ai.usage.output_tokens', value: { intValue: '5' } },
                { key: 'gen_ai.request.temperature', value: { doubleValue: 0.5 } },
                { key: 'flags', value: { arrayValue: { values: [{ boolValue: true }, { stringValue: 'x' }] } } },
                { key: 'blob', value: { bytesValue: Buffer.from([1, 2, 255]) } },
                s('gen_ai.input.messages', '[{"role":"user","parts":[{"type":"text","content":"hi"}]}]'),
              ],
              droppedAttributesCount: 0,
              events: [{ timeUnixNano: '1749000000300000000', name: 'tick', attributes: [s('n', 'one')], droppedAttributesCount: 0 }],
              droppedEventsCount: 0,
              links: [],
              droppedLinksCount: 0,
              status: { code: 1, message: '' },
            },
          ],
        },
      ],
    },
  ],
};

/** The same export as an OTLP/JSON exporter writes it, with the spellings receivers must accept. */
const jsonRequest = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
      schema_url: 'https://opentelemetry.io/schemas/1.26.0',
      scopeSpans: [
        {
          scope: { name: 'genai', version: '1.2.3' },
          spans: [
            {
              traceId: TRACE,
              spanId: ROOT,
              name: 'invoke_agent',
              kind: 'SPAN_KIND_INTERNAL',
              startTimeUnixNano: '1749000000123456789',
              endTimeUnixNano: '1749000001987654321',
              attributes: [{ key: 'gen_ai.conversation.id', value: { stringValue: 'conv-7' } }],
              status: { code: 'STATUS_CODE_ERROR', message: 'tool failed' },
            },
            {
              trace_id: TRACE,
              span_id: CHILD,
              trace_state: 'vendor=1',
              parent_span_id: ROOT,
              flags: 1,
              name: 'chat gpt-4o',
              kind: 3,
              start_time_unix_nano: '1749000000200000000',
              end_time_unix_nano: '1749000000900000000',
              attributes: [
                { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
                { key: 'gen_ai.usage.input_tokens', value: { intValue: 12 } },
                { key: 'gen_ai.usage.output_tokens', value: { intValue: '5' } },
                { key: 'gen_ai.request.temperature', value: { doubleValue: 0.5 } },
                { key: 'flags', value: { arrayValue: { values: [{ boolValue: true }, { stringValue: 'x' }] } } },
                { key: 'blob', value: { bytesValue: Buffer.from([1, 2, 255]).toString('base64') } },
                { key: 'gen_ai.input.messages', value: { stringValue: '[{"role":"user","parts":[{"type":"text","content":"hi"}]}]' } },
              ],
              events: [{ timeUnixNano: '1749000000300000000', name: 'tick', attributes: [{ key: 'n', value: { stringValue: 'one' } }] }],
              status: { code: 1 },
            },
          ],
        },
      ],
    },
  ],
};

describe('OTLP protobuf and OTLP/JSON', () => {
  it('give the same calls, whichever decoder, lazy or whole', async () => {
    const bytes = ExportTraceServiceRequest.encode(protobufRequest).finish();
    const fromProtobuf = await otlpCalls(await decodeOtlpProtobuf(bytes), ['acme/p']);
    const fromLazy = await otlpCalls(await readOtlpProtobuf(bytes), ['acme/p']);
    const fromJson = await otlpCalls(await decodeOtlpJson(JSON.parse(JSON.stringify(jsonRequest))), ['acme/p']);
    expect(fromProtobuf.rejected).toBe(0);
    expect(fromProtobuf.calls).toHaveLength(2);
    expect(fromLazy).toEqual(fromProtobuf);
    expect(fromJson).toEqual(fromProtobuf);

    const [root, child] = fromProtobuf.calls;
    expect(root).toMatchObject({ id: ROOT, trace_id: TRACE, parent_id: null, thread_id: 'conv-7', exception: 'tool failed' });
    expect(child).toMatchObject({
      id: CHILD,
      parent_id: ROOT,
      started_at: '2025-06-04T01:20:00.200Z',
      ended_at: '2025-06-04T01:20:00.900Z',
    });
    const raw = JSON.parse(child!.attributes).otel_span;
    expect(raw).toMatchObject({
      kind: 'SPAN_KIND_CLIENT',
      context: { trace_id: TRACE, span_id: CHILD, trace_state: 'vendor=1' },
      start_time_unix_nano: '1749000000200000000',
      flags: 1,
      attributes: { flags: [true, 'x'], blob: 'AQL/', 'gen_ai.usage.input_tokens': 12 },
      events: [{ name: 'tick', time_unix_nano: '1749000000300000000', attributes: { n: 'one' } }],
      resource: { 'service.name': 'agent' },
      scope: { name: 'genai', version: '1.2.3' },
      resource_schema_url: 'https://opentelemetry.io/schemas/1.26.0',
    });
    expect(raw).not.toHaveProperty('scope_schema_url');
  });

  it('refuse a JSON body of the wrong shape, naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /expected an object/],
      [{ resourceSpans: {} }, /resourceSpans: expected an array/],
      [{ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'zz' }] }] }] }, /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.traceId/],
      [{ resourceSpans: [{ scopeSpans: [{ spans: [{ kind: 'SPAN_KIND_NOPE' }] }] }] }, /kind/],
      [{ resourceSpans: [{ scopeSpans: [{ spans: [{ startTimeUnixNano: 1.5 }] }] }] }, /startTimeUnixNano/],
      // fixed64 times: not negative, not past 2^64 - 1 (never wrapped); int64 values within ±2^63.
      [{ resourceSpans: [{ scopeSpans: [{ spans: [{ endTimeUnixNano: '-1' }] }] }] }, /endTimeUnixNano: expected an unsigned 64-bit/],
      [
        { resourceSpans: [{ scopeSpans: [{ spans: [{ startTimeUnixNano: '18446744073709551616' }] }] }] },
        /startTimeUnixNano: expected an unsigned/,
      ],
      [
        { resourceSpans: [{ scopeSpans: [{ spans: [{ attributes: [{ key: 'n', value: { intValue: '9223372036854775808' } }] }] }] }] },
        /intValue: expected a signed 64-bit/,
      ],
    ];
    for (const [body, message] of cases) await expect(decodeOtlpJson(body), String(message)).rejects.toThrow(message);
    await expect(decodeOtlpJson([])).rejects.toBeInstanceOf(OtlpJsonError);
    // Unknown fields beside resourceSpans are ignored; other fields without it are not an export.
    await expect(decodeOtlpJson({ project_id: { $ne: 1 } })).rejects.toThrow(/not an OTLP trace export/);
    await expect(decodeOtlpJson({ resourceSpans: [], newerField: 1 })).resolves.toEqual({ resourceSpans: [] });
    await expect(decodeOtlpJson({})).resolves.toEqual({ resourceSpans: [] });
  });

  it('read 64-bit integers to their limits exactly, and a double sent as a decimal string', async () => {
    const attrs = [
      { key: 'min', value: { intValue: '-9223372036854775808' } },
      { key: 'd', value: { doubleValue: '2.5e-3' } },
    ];
    const request = await decodeOtlpJson({
      resourceSpans: [{ scopeSpans: [{ spans: [{ startTimeUnixNano: '18446744073709551615', attributes: attrs }] }] }],
    });
    const span = request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect('startTimeUnixNano' in span && span.startTimeUnixNano).toBe('18446744073709551615');
    expect('attributes' in span && span.attributes.map((kv) => kv.value)).toEqual([
      { intValue: '-9223372036854775808' },
      { doubleValue: 0.0025 },
    ]);
  });

  it('refuse protobuf that is not the message: truncated, or a span whose text is not UTF-8', async () => {
    const bytes = ExportTraceServiceRequest.encode(protobufRequest).finish();
    await expect(readOtlpProtobuf(bytes.subarray(0, bytes.length - 3))).rejects.toThrow(/premature end|range/i);
    const badText = Buffer.from(bytes);
    badText[badText.indexOf('chat gpt-4o')] = 0xff;
    // The envelope is sound, so the lazy reader accepts it; the span fails when it is decoded.
    const lazy = await readOtlpProtobuf(badText);
    await expect(otlpCalls(lazy, ['acme/p'])).rejects.toThrow(/Malformed OTLP protobuf: a span/);
    await expect(decodeOtlpProtobuf(badText)).rejects.toThrow(/Malformed OTLP protobuf: a span/);
  });
});
