// A protobuf ExportTraceServiceRequest, read by the code generated from the vendored
// opentelemetry-proto files (proto/README.md). The three enclosing messages are walked here (field
// numbers from trace_service.proto and trace.proto) and each span is left as its bytes, a view
// into the body: spans are decoded one at a time while they are mapped and stored, so a 32 MB
// export never holds every decoded span at once (bench: otel-ingest, peak RSS), and the walk
// itself gives the event loop a turn every few milliseconds.
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { invalidRequest } from '../errors.ts';
import { TurnClock } from '../turns.ts';
import type { ExportTraceServiceRequest } from './proto/opentelemetry/proto/collector/trace/v1/trace_service.generated.ts';
import { InstrumentationScope } from './proto/opentelemetry/proto/common/v1/common.generated.ts';
import { Resource } from './proto/opentelemetry/proto/resource/v1/resource.generated.ts';
import { Span } from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';

/** A span decoded (OTLP/JSON, tests) or still its protobuf bytes (decoded by `spanOf`). */
export type SpanSource = Span | Uint8Array;

/** An export whose spans may still be bytes; a decoded ExportTraceServiceRequest is one too. */
export interface OtlpExport {
  resourceSpans: Array<{
    resource: Resource | undefined;
    schemaUrl: string;
    scopeSpans: Array<{ scope: InstrumentationScope | undefined; schemaUrl: string; spans: SpanSource[] }>;
  }>;
  /** The protobuf body it was read from: a mapping thread reads it again (map-thread.ts). */
  body?: Uint8Array;
  /** The caller gave the body away: a mapping thread takes it instead of a copy, leaving it empty. */
  bodyGiven?: boolean;
}

/**
 * The export with each span left as bytes. Throws on a body that is not the message. `given`: the
 * caller will not read `bytes` again (a request's own body), so a mapping thread may take them.
 */
export async function readOtlpProtobuf(bytes: Uint8Array, clock = new TurnClock(), { given = false } = {}): Promise<OtlpExport> {
  const reader = new BinaryReader(bytes, strictUtf8);
  const request: OtlpExport = { resourceSpans: [], body: bytes, bodyGiven: given };
  while (reader.pos < reader.len) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited)
      request.resourceSpans.push(await resourceSpans(reader, bytes, reader.uint32(), clock));
    else reader.skip(wire, field);
  }
  return request;
}

/** Every span decoded too (what `readOtlpProtobuf` defers): tests, and the bench's baseline. */
export async function decodeOtlpProtobuf(bytes: Uint8Array, clock = new TurnClock()): Promise<ExportTraceServiceRequest> {
  const request = await readOtlpProtobuf(bytes, clock);
  const decoded: ExportTraceServiceRequest = { resourceSpans: [] };
  for (const rs of request.resourceSpans) {
    const scopeSpans = [];
    for (const ss of rs.scopeSpans) {
      const spans: Span[] = [];
      for (const source of ss.spans) {
        spans.push(spanOf(source));
        if (clock.due) await clock.pass();
      }
      scopeSpans.push({ ...ss, spans });
    }
    decoded.resourceSpans.push({ ...rs, scopeSpans });
  }
  return decoded;
}

/** The span, decoded if still bytes; bytes that are not a span are a malformed body (400). */
export function spanOf(source: SpanSource): Span {
  if (!(source instanceof Uint8Array)) return source;
  try {
    return Span.decode(new BinaryReader(source, strictUtf8));
  } catch (err) {
    throw invalidRequest(`Malformed OTLP protobuf: a span: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function resourceSpans(
  reader: BinaryReader,
  bytes: Uint8Array,
  length: number,
  clock: TurnClock,
): Promise<OtlpExport['resourceSpans'][number]> {
  const end = bounded(reader, length);
  const message: OtlpExport['resourceSpans'][number] = { resource: undefined, scopeSpans: [], schemaUrl: '' };
  while (reader.pos < end) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) message.resource = Resource.decode(reader, reader.uint32());
    else if (field === 2 && wire === WireType.LengthDelimited)
      message.scopeSpans.push(await scopeSpans(reader, bytes, reader.uint32(), clock));
    else if (field === 3 && wire === WireType.LengthDelimited) message.schemaUrl = reader.string();
    else reader.skip(wire, field);
  }
  return message;
}

type ScopeSpansOf = OtlpExport['resourceSpans'][number]['scopeSpans'][number];

async function scopeSpans(reader: BinaryReader, bytes: Uint8Array, length: number, clock: TurnClock): Promise<ScopeSpansOf> {
  const end = bounded(reader, length);
  const message: ScopeSpansOf = { scope: undefined, spans: [], schemaUrl: '' };
  while (reader.pos < end) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) message.scope = InstrumentationScope.decode(reader, reader.uint32());
    else if (field === 2 && wire === WireType.LengthDelimited) {
      const spanEnd = bounded(reader, reader.uint32());
      // A view, not a copy: the body stays alive until the export is stored anyway.
      message.spans.push(bytes.subarray(reader.pos, spanEnd));
      reader.pos = spanEnd;
      if (clock.due) await clock.pass();
    } else if (field === 3 && wire === WireType.LengthDelimited) message.schemaUrl = reader.string();
    else reader.skip(wire, field);
  }
  return message;
}

// Protobuf strings are UTF-8 by definition: invalid bytes are a malformed body, never text
// silently changed to U+FFFD (the reader's default).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const strictUtf8 = (bytes: Uint8Array) => utf8.decode(bytes);

/** The end of a nested message, which must lie inside its parent's bytes. */
function bounded(reader: BinaryReader, length: number): number {
  const end = reader.pos + length;
  if (end > reader.len) throw new RangeError('premature end of the message');
  return end;
}
