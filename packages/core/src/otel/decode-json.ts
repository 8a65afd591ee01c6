// OTLP/JSON (the protobuf JSON mapping with OTLP's exceptions: trace and span ids in hex, enums as
// integers, 64-bit integers as decimal strings or numbers) into the same messages the protobuf
// decoder gives, so one mapping serves both encodings. Unknown fields are ignored, as the OTLP
// specification requires of receivers; a known field of the wrong type is a malformed body.
import { TurnClock } from '../turns.ts';
import type { ExportTraceServiceRequest } from './proto/opentelemetry/proto/collector/trace/v1/trace_service.generated.ts';
import type { AnyValue, InstrumentationScope, KeyValue } from './proto/opentelemetry/proto/common/v1/common.generated.ts';
import type { Resource } from './proto/opentelemetry/proto/resource/v1/resource.generated.ts';
import type {
  ResourceSpans,
  ScopeSpans,
  Span,
  Span_Event,
  Span_Link,
  Status,
} from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';

/** A body that parses as JSON but is not an ExportTraceServiceRequest; `path` names the field. */
export class OtlpJsonError extends Error {}

type Obj = Record<string, unknown>;

export async function decodeOtlpJson(body: unknown, clock = new TurnClock()): Promise<ExportTraceServiceRequest> {
  const root = object(body, '');
  // Unknown fields are ignored (OTLP), but a body with other fields and no resourceSpans at all is
  // not an export from a newer exporter: it is something else, refused rather than answered "stored".
  const keys = Object.keys(root);
  if (keys.length > 0 && field(root, 'resourceSpans') === undefined) {
    throw new OtlpJsonError(`body: not an OTLP trace export (no resourceSpans; fields ${keys.slice(0, 5).join(', ')})`);
  }
  const request: ExportTraceServiceRequest = { resourceSpans: [] };
  for (const [i, rs] of list(field(root, 'resourceSpans'), 'resourceSpans')) {
    const where = `resourceSpans[${i}]`;
    const r = object(rs, where);
    const message: ResourceSpans = { resource: undefined, scopeSpans: [], schemaUrl: str(field(r, 'schemaUrl'), `${where}.schemaUrl`) };
    const resource = field(r, 'resource');
    if (resource !== undefined && resource !== null)
      message.resource = toResource(object(resource, `${where}.resource`), `${where}.resource`);
    for (const [j, ss] of list(field(r, 'scopeSpans'), `${where}.scopeSpans`)) {
      const at = `${where}.scopeSpans[${j}]`;
      const s = object(ss, at);
      const scope: ScopeSpans = { scope: undefined, spans: [], schemaUrl: str(field(s, 'schemaUrl'), `${at}.schemaUrl`) };
      const sc = field(s, 'scope');
      if (sc !== undefined && sc !== null) scope.scope = toScope(object(sc, `${at}.scope`), `${at}.scope`);
      for (const [k, span] of list(field(s, 'spans'), `${at}.spans`)) {
        scope.spans.push(toSpan(object(span, `${at}.spans[${k}]`), `${at}.spans[${k}]`));
        if (clock.due) await clock.pass();
      }
      message.scopeSpans.push(scope);
    }
    request.resourceSpans.push(message);
  }
  return request;
}

function toResource(r: Obj, where: string): Resource {
  return {
    attributes: keyValues(field(r, 'attributes'), `${where}.attributes`),
    droppedAttributesCount: uint(field(r, 'droppedAttributesCount'), `${where}.droppedAttributesCount`),
  };
}

function toScope(s: Obj, where: string): InstrumentationScope {
  return {
    name: str(field(s, 'name'), `${where}.name`),
    version: str(field(s, 'version'), `${where}.version`),
    attributes: keyValues(field(s, 'attributes'), `${where}.attributes`),
    droppedAttributesCount: uint(field(s, 'droppedAttributesCount'), `${where}.droppedAttributesCount`),
  };
}

function toSpan(s: Obj, where: string): Span {
  const status = field(s, 'status');
  return {
    traceId: hexId(field(s, 'traceId'), `${where}.traceId`),
    spanId: hexId(field(s, 'spanId'), `${where}.spanId`),
    traceState: str(field(s, 'traceState'), `${where}.traceState`),
    parentSpanId: hexId(field(s, 'parentSpanId'), `${where}.parentSpanId`),
    flags: uint(field(s, 'flags'), `${where}.flags`),
    name: str(field(s, 'name'), `${where}.name`),
    kind: enumValue(field(s, 'kind'), `${where}.kind`, SPAN_KINDS),
    startTimeUnixNano: fixed64(field(s, 'startTimeUnixNano'), `${where}.startTimeUnixNano`),
    endTimeUnixNano: fixed64(field(s, 'endTimeUnixNano'), `${where}.endTimeUnixNano`),
    attributes: keyValues(field(s, 'attributes'), `${where}.attributes`),
    droppedAttributesCount: uint(field(s, 'droppedAttributesCount'), `${where}.droppedAttributesCount`),
    events: list(field(s, 'events'), `${where}.events`).map(([i, e]) =>
      toEvent(object(e, `${where}.events[${i}]`), `${where}.events[${i}]`),
    ),
    droppedEventsCount: uint(field(s, 'droppedEventsCount'), `${where}.droppedEventsCount`),
    links: list(field(s, 'links'), `${where}.links`).map(([i, l]) => toLink(object(l, `${where}.links[${i}]`), `${where}.links[${i}]`)),
    droppedLinksCount: uint(field(s, 'droppedLinksCount'), `${where}.droppedLinksCount`),
    status: status === undefined || status === null ? undefined : toStatus(object(status, `${where}.status`), `${where}.status`),
  };
}

function toEvent(e: Obj, where: string): Span_Event {
  return {
    timeUnixNano: fixed64(field(e, 'timeUnixNano'), `${where}.timeUnixNano`),
    name: str(field(e, 'name'), `${where}.name`),
    attributes: keyValues(field(e, 'attributes'), `${where}.attributes`),
    droppedAttributesCount: uint(field(e, 'droppedAttributesCount'), `${where}.droppedAttributesCount`),
  };
}

function toLink(l: Obj, where: string): Span_Link {
  return {
    traceId: hexId(field(l, 'traceId'), `${where}.traceId`),
    spanId: hexId(field(l, 'spanId'), `${where}.spanId`),
    traceState: str(field(l, 'traceState'), `${where}.traceState`),
    attributes: keyValues(field(l, 'attributes'), `${where}.attributes`),
    droppedAttributesCount: uint(field(l, 'droppedAttributesCount'), `${where}.droppedAttributesCount`),
    flags: uint(field(l, 'flags'), `${where}.flags`),
  };
}

function toStatus(s: Obj, where: string): Status {
  return { message: str(field(s, 'message'), `${where}.message`), code: enumValue(field(s, 'code'), `${where}.code`, STATUS_CODES) };
}

function keyValues(value: unknown, where: string): KeyValue[] {
  return list(value, where).map(([i, kv]) => {
    const o = object(kv, `${where}[${i}]`);
    const v = field(o, 'value');
    return {
      key: str(field(o, 'key'), `${where}[${i}].key`),
      value: v === undefined || v === null ? undefined : anyValue(object(v, `${where}[${i}].value`), `${where}[${i}].value`),
    };
  });
}

function anyValue(o: Obj, where: string): AnyValue {
  // The oneof: the first member present (a well-formed value has one).
  for (const [name, read] of ANY_VALUE_MEMBERS) {
    const v = field(o, name);
    if (v !== undefined && v !== null) return read(v, `${where}.${name}`);
  }
  return {};
}

const ANY_VALUE_MEMBERS: ReadonlyArray<[string, (v: unknown, where: string) => AnyValue]> = [
  ['stringValue', (v, w) => ({ stringValue: str(v, w) })],
  ['boolValue', (v, w) => ({ boolValue: bool(v, w) })],
  ['intValue', (v, w) => ({ intValue: int64(v, w) })],
  ['doubleValue', (v, w) => ({ doubleValue: double(v, w) })],
  [
    'arrayValue',
    (v, w) => ({
      arrayValue: {
        values: list(field(object(v, w), 'values'), `${w}.values`).map(([i, x]) =>
          anyValue(object(x, `${w}.values[${i}]`), `${w}.values[${i}]`),
        ),
      },
    }),
  ],
  ['kvlistValue', (v, w) => ({ kvlistValue: { values: keyValues(field(object(v, w), 'values'), `${w}.values`) } })],
  ['bytesValue', (v, w) => ({ bytesValue: base64(v, w) })],
];

const SPAN_KINDS = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
];
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];

// ---------------------------------------------------------------------------------------------
// Scalars. The protobuf JSON mapping accepts a field's original snake_case name too.

function field(o: Obj, camel: string): unknown {
  if (Object.hasOwn(o, camel)) return o[camel];
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return snake !== camel && Object.hasOwn(o, snake) ? o[snake] : undefined;
}

function fail(where: string, expected: string, value: unknown): never {
  throw new OtlpJsonError(`${where || 'body'}: expected ${expected}, got ${JSON.stringify(value)?.slice(0, 60) ?? typeof value}`);
}

function object(value: unknown, where: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'an object', value);
  return value as Obj;
}

function list(value: unknown, where: string): Array<[number, unknown]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(where, 'an array', value);
  return value.map((v, i) => [i, v]);
}

function str(value: unknown, where: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') fail(where, 'a string', value);
  return value;
}

function bool(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(where, 'true or false', value);
  return value;
}

function uint(value: unknown, where: string): number {
  if (value === undefined || value === null) return 0;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) fail(where, 'an unsigned 32-bit integer', value);
  return n;
}

const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const UINT64 = [0n, 2n ** 64n - 1n] as const;

/** A signed 64-bit integer (intValue) as its decimal string, exact past 2^53. */
function int64(value: unknown, where: string): string {
  return integer64(value, where, INT64, 'a signed 64-bit integer');
}

/** An unsigned 64-bit integer (the fixed64 nanosecond times) as its decimal string. */
function fixed64(value: unknown, where: string): string {
  return integer64(value, where, UINT64, 'an unsigned 64-bit integer');
}

// Out of range is refused, as the protobuf decoder would never produce it (never wrapped or clamped).
function integer64(value: unknown, where: string, [min, max]: readonly [bigint, bigint], what: string): string {
  if (value === undefined || value === null) return '0';
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) {
    const n = BigInt(value);
    if (n >= min && n <= max) return n.toString();
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && BigInt(value) >= min) return String(value);
  fail(where, `${what} (a number, or a decimal string beyond 2^53)`, value);
}

function double(value: unknown, where: string): number {
  if (typeof value === 'number') return value;
  // The protobuf JSON mapping also allows a double as a decimal string.
  if (typeof value === 'string' && /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(value)) return Number(value);
  if (value === 'NaN') return NaN;
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  fail(where, 'a number', value);
}

function enumValue(value: unknown, where: string, names: readonly string[]): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && names.includes(value)) return names.indexOf(value);
  fail(where, `an integer or one of ${names.join(', ')}`, value);
}

/** OTLP/JSON's trace and span ids: hex, not the base64 of the protobuf JSON mapping. */
function hexId(value: unknown, where: string): Buffer {
  if (value === undefined || value === null || value === '') return Buffer.alloc(0);
  if (typeof value !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(value)) fail(where, 'an id in hex', value);
  return Buffer.from(value, 'hex');
}

function base64(value: unknown, where: string): Buffer {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) fail(where, 'base64 bytes', value);
  return Buffer.from(value, 'base64');
}
