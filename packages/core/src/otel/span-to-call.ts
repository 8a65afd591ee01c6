// One OTLP span → one Weave call, as Weave's trace server maps it (python_spans.py `to_call`)
// and better where Weave misses: hex ids, the parent from the
// parent span id, op name = span name, times from the nanosecond timestamps, ERROR status → an
// exception enriched by the span's `exception` events; inputs, output, usage and attributes from
// the conventions of genai-keys.ts. Everything the span carried (attributes, events, links,
// resource, scope, exact nanosecond times) is kept under `attributes.otel_span`, so nothing sent
// is lost. A span that cannot be stored as sent is refused (SpanRefusal), never altered.
import { createHash } from 'node:crypto';
import type { InstrumentationScope } from './proto/opentelemetry/proto/common/v1/common.generated.ts';
import type { Resource } from './proto/opentelemetry/proto/resource/v1/resource.generated.ts';
import { Span_SpanKind, Status_StatusCode, type Span } from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';
import { isJsonObject as isObject, keyValuesToJson, setOwn, SpanRefusal, type JsonValue } from './any-value.ts';
import { AttributeLookup } from './attribute-lookup.ts';
import { inputFromEvents, outputFromEvents } from './genai-events.ts';
import { ATTRIBUTE_KEYS, INPUT_KEYS, OUTPUT_KEYS, THREAD_KEYS, USAGE_KEYS } from './genai-keys.ts';

/** A call as the store writes it: both halves at once, JSON columns already as text. */
export interface OtelCall {
  project_id: string;
  id: string;
  trace_id: string;
  parent_id: string | null;
  op_name: string;
  display_name: string | null;
  thread_id: string | null;
  turn_id: string | null;
  started_at: string;
  ended_at: string;
  exception: string | null;
  /** JSON text of the call's attributes, inputs, output and summary. */
  attributes: string;
  inputs: string;
  output: string;
  summary: string;
}

/** The span's resource and scope, converted once for all of their spans. */
export interface SpanOrigin {
  resource: { [key: string]: JsonValue } | undefined;
  scope: { [key: string]: JsonValue } | undefined;
  /** What else the envelope said, kept in `otel_span` only when present. */
  extra: { [key: string]: JsonValue };
}

export function spanOrigin(
  resource: Resource | undefined,
  scope: InstrumentationScope | undefined,
  schemaUrls: { resource: string; scope: string } = { resource: '', scope: '' },
): SpanOrigin {
  const extra: { [key: string]: JsonValue } = {};
  if (resource?.droppedAttributesCount) extra.resource_dropped_attributes_count = resource.droppedAttributesCount;
  if (schemaUrls.resource !== '') extra.resource_schema_url = schemaUrls.resource;
  if (schemaUrls.scope !== '') extra.scope_schema_url = schemaUrls.scope;
  return {
    resource: resource && keyValuesToJson(resource.attributes, 'resource.attributes'),
    scope: scope && {
      name: scope.name,
      version: scope.version,
      attributes: keyValuesToJson(scope.attributes, 'scope.attributes'),
      ...(scope.droppedAttributesCount ? { dropped_attributes_count: scope.droppedAttributesCount } : {}),
    },
    extra,
  };
}

/** Weave's limit for an op name that is not a ref (call-start.ts). */
const MAX_OP_NAME = 128;

export function spanToCall(span: Span, origin: SpanOrigin, projectId: string): OtelCall {
  const id = hexId(span.spanId, 8, 'span_id');
  const traceId = hexId(span.traceId, 16, 'trace_id');
  const parentId = span.parentSpanId.length === 0 ? null : hexId(span.parentSpanId, 8, 'parent_span_id');
  if (span.name === '') throw new SpanRefusal(`span ${id}: the name is empty`);
  const startMs = nanosToMs(span.startTimeUnixNano, 'start_time_unix_nano', id);
  const endMs = nanosToMs(span.endTimeUnixNano, 'end_time_unix_nano', id);
  // Exact to the nanosecond: a span ending 1 ns before it starts is refused like any other.
  if (endMs < startMs || (endMs === startMs && BigInt(span.endTimeUnixNano) < BigInt(span.startTimeUnixNano)))
    throw new SpanRefusal(`span ${id}: it ends before it starts`);

  const flat = keyValuesToJson(span.attributes, `span ${id}: attributes`);
  const attrs = new AttributeLookup(flat);

  const attributes: { [key: string]: JsonValue } = {};
  for (const [name, keys] of Object.entries(ATTRIBUTE_KEYS)) {
    const found = attrs.first(keys);
    if (found) setOwn(attributes, name, found[1]);
  }
  const extra = attrs.find('wandb.attributes');
  if (isObject(extra)) for (const [k, v] of Object.entries(extra)) setOwn(attributes, k, v);
  setOwn(attributes, 'otel_span', rawSpan(span, flat, origin, id, traceId, parentId));

  const input = attrs.first(INPUT_KEYS) ?? inputFromEvents(span.events, `span ${id}`);
  const inputs =
    input === undefined ? {} : (input[0] === 'input' || input[0] === 'inputs') && isObject(input[1]) ? input[1] : { [input[0]]: input[1] };
  const out = attrs.first(OUTPUT_KEYS) ?? outputFromEvents(span.events, `span ${id}`);
  const output = out === undefined ? null : out[0] === 'output' || out[0] === 'outputs' ? out[1] : { [out[0]]: out[1] };

  const summary: { [key: string]: JsonValue } = {};
  const usage = usageOf(attrs, id);
  if (usage) {
    const params = attributes.model_parameters;
    const model =
      typeof attributes.model === 'string'
        ? attributes.model
        : isObject(params) && typeof params.model === 'string'
          ? params.model
          : 'usage';
    summary.usage = { [model]: usage };
  }

  const displayName = attrs.raw('wandb.display_name');
  const thread = attrs.first(THREAD_KEYS);
  return storable({
    project_id: projectId,
    id,
    trace_id: traceId,
    parent_id: parentId,
    op_name: opName(span.name),
    display_name: typeof displayName === 'string' && displayName !== '' ? displayName : null,
    thread_id: thread === undefined ? null : typeof thread[1] === 'string' ? thread[1] : JSON.stringify(thread[1]),
    turn_id: attrs.raw('wandb.is_turn') === true ? id : null,
    started_at: new Date(startMs).toISOString(),
    ended_at: new Date(endMs).toISOString(),
    exception: span.status?.code === Status_StatusCode.STATUS_CODE_ERROR ? exceptionOf(span) : null,
    attributes: JSON.stringify(attributes),
    inputs: JSON.stringify(inputs),
    output: JSON.stringify(output),
    summary: JSON.stringify(summary),
  });
}

function rawSpan(span: Span, attributes: JsonValue, origin: SpanOrigin, id: string, traceId: string, parentId: string | null) {
  const raw: { [key: string]: JsonValue } = {
    name: span.name,
    kind: Span_SpanKind[span.kind] ?? span.kind,
    context: span.traceState === '' ? { trace_id: traceId, span_id: id } : { trace_id: traceId, span_id: id, trace_state: span.traceState },
    parent_id: parentId,
    start_time_unix_nano: span.startTimeUnixNano,
    end_time_unix_nano: span.endTimeUnixNano,
    status: { code: Status_StatusCode[span.status?.code ?? 0] ?? span.status?.code ?? 0, message: span.status?.message ?? '' },
    attributes,
    events: span.events.map((e, i) => ({
      name: e.name,
      time_unix_nano: e.timeUnixNano,
      attributes: keyValuesToJson(e.attributes, `span ${id}: events[${i}]`),
      ...(e.droppedAttributesCount ? { dropped_attributes_count: e.droppedAttributesCount } : {}),
    })),
    links: span.links.map((l, i) => ({
      trace_id: l.traceId.toString('hex'),
      span_id: l.spanId.toString('hex'),
      ...(l.traceState ? { trace_state: l.traceState } : {}),
      attributes: keyValuesToJson(l.attributes, `span ${id}: links[${i}]`),
      ...(l.flags ? { flags: l.flags } : {}),
    })),
    resource: origin.resource ?? null,
    scope: origin.scope ?? null,
    ...origin.extra,
  };
  if (span.flags) raw.flags = span.flags;
  if (span.droppedAttributesCount) raw.dropped_attributes_count = span.droppedAttributesCount;
  if (span.droppedEventsCount) raw.dropped_events_count = span.droppedEventsCount;
  if (span.droppedLinksCount) raw.dropped_links_count = span.droppedLinksCount;
  return raw;
}

function usageOf(attrs: AttributeLookup, id: string): { [key: string]: number } | undefined {
  let usage: { [key: string]: number } | undefined;
  for (const [name, keys] of Object.entries(USAGE_KEYS)) {
    for (const key of keys) {
      const value = attrs.raw(key);
      if (value === undefined || value === null) continue;
      const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
        throw new SpanRefusal(`span ${id}: ${key} is not a token count: ${JSON.stringify(value)}`);
      (usage ??= {})[name] = n;
      break;
    }
  }
  if (usage && usage.total_tokens === undefined) {
    usage.total_tokens = (usage.input_tokens ?? usage.prompt_tokens ?? 0) + (usage.output_tokens ?? usage.completion_tokens ?? 0);
  }
  return usage;
}

/** The status message, then each `exception` event (type: message, and its stack trace). */
function exceptionOf(span: Span): string {
  const parts: string[] = [];
  const message = span.status?.message ?? '';
  if (message !== '') parts.push(message);
  for (const event of span.events) {
    if (event.name !== 'exception') continue;
    const get = (key: string) => event.attributes.find((kv) => kv.key === key)?.value?.stringValue ?? '';
    const line = [get('exception.type'), get('exception.message')].filter((s) => s !== '').join(': ');
    // Only a line that adds nothing to the status message is left out (an event with a type alone,
    // or the same words with a type, still tells more).
    if (line !== '' && line !== message) parts.push(line);
    const stack = get('exception.stacktrace');
    if (stack !== '') parts.push(stack);
  }
  // An error with no words at all must still read as an error (an empty exception would not).
  return parts.length > 0 ? parts.join('\n') : 'Error (OpenTelemetry status ERROR, no message)';
}

function opName(name: string): string {
  if (name.length <= MAX_OP_NAME) return name;
  // As Weave shortens long names: a prefix and 4 hex of the whole name's sha256, so names stay apart.
  // The cut backs off one unit rather than split a surrogate pair (a lone half is refused).
  let cut = MAX_OP_NAME - 5;
  if (isHighSurrogate(name.charCodeAt(cut - 1))) cut -= 1;
  return `${name.slice(0, cut)}:${createHash('sha256').update(name).digest('hex').slice(0, 4)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function hexId(bytes: Buffer, length: number, field: string): string {
  if (bytes.length !== length) throw new SpanRefusal(`${field} must be ${length} bytes, got ${bytes.length}`);
  const hex = bytes.toString('hex');
  if (/^0+$/.test(hex)) throw new SpanRefusal(`${field} is all zeros (an invalid id)`);
  return hex;
}

/** Whole milliseconds (the stored precision); the exact nanoseconds stay in otel_span. */
function nanosToMs(nanos: string, field: string, id: string): number {
  if (nanos === '0' || nanos.startsWith('-')) throw new SpanRefusal(`span ${id}: ${field} is missing`);
  return nanos.length > 6 ? Number(nanos.slice(0, -6)) : 0;
}

// JSON.stringify writes `\u` only for control characters and unpaired surrogates; PostgreSQL's
// jsonb refuses U+0000 and unpaired surrogates, so both databases refuse them (as obj/create does).
const UNSTORABLE_JSON = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f])/i;

const UNSTORABLE_TEXT = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function storable(call: OtelCall): OtelCall {
  for (const text of [call.attributes, call.inputs, call.output, call.summary]) {
    if (text.includes('\\u') && UNSTORABLE_JSON.test(text))
      throw new SpanRefusal(`span ${call.id}: a value contains U+0000 or an unpaired surrogate`);
  }
  for (const text of [call.op_name, call.display_name, call.thread_id, call.exception]) {
    if (text !== null && UNSTORABLE_TEXT.test(text))
      throw new SpanRefusal(`span ${call.id}: a name contains U+0000 or an unpaired surrogate`);
  }
  return call;
}
