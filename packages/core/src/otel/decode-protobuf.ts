// A protobuf ExportTraceServiceRequest, decoded by the code generated from the vendored
// opentelemetry-proto files (proto/README.md), one span at a time: the three enclosing messages
// are walked here (field numbers from trace_service.proto and trace.proto) so that a 32 MB export
// gives the event loop a turn every few milliseconds instead of one long decode.
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { TurnClock } from '../turns.ts';
import type { ExportTraceServiceRequest } from './proto/opentelemetry/proto/collector/trace/v1/trace_service.generated.ts';
import { InstrumentationScope } from './proto/opentelemetry/proto/common/v1/common.generated.ts';
import { Resource } from './proto/opentelemetry/proto/resource/v1/resource.generated.ts';
import { Span, type ResourceSpans, type ScopeSpans } from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';

/** Throws on bytes that are not the message (truncated, a wrong wire type, invalid UTF-8). */
export async function decodeOtlpProtobuf(bytes: Uint8Array, clock = new TurnClock()): Promise<ExportTraceServiceRequest> {
  const reader = new BinaryReader(bytes, strictUtf8);
  const request: ExportTraceServiceRequest = { resourceSpans: [] };
  while (reader.pos < reader.len) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) request.resourceSpans.push(await resourceSpans(reader, reader.uint32(), clock));
    else reader.skip(wire, field);
  }
  return request;
}

async function resourceSpans(reader: BinaryReader, length: number, clock: TurnClock): Promise<ResourceSpans> {
  const end = bounded(reader, length);
  const message: ResourceSpans = { resource: undefined, scopeSpans: [], schemaUrl: '' };
  while (reader.pos < end) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) message.resource = Resource.decode(reader, reader.uint32());
    else if (field === 2 && wire === WireType.LengthDelimited) message.scopeSpans.push(await scopeSpans(reader, reader.uint32(), clock));
    else if (field === 3 && wire === WireType.LengthDelimited) message.schemaUrl = reader.string();
    else reader.skip(wire, field);
  }
  return message;
}

async function scopeSpans(reader: BinaryReader, length: number, clock: TurnClock): Promise<ScopeSpans> {
  const end = bounded(reader, length);
  const message: ScopeSpans = { scope: undefined, spans: [], schemaUrl: '' };
  while (reader.pos < end) {
    const [field, wire] = reader.tag();
    if (field === 1 && wire === WireType.LengthDelimited) message.scope = InstrumentationScope.decode(reader, reader.uint32());
    else if (field === 2 && wire === WireType.LengthDelimited) {
      message.spans.push(Span.decode(reader, reader.uint32()));
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
