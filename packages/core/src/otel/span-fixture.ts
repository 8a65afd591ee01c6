// A span for tests, every field at its protobuf default but a valid trace id and a 1 ns duration:
// a test names only what it is about (the store's and server's tests build their own through
// the codec, as clients send them).
import type { Span } from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';

export function fixtureSpan(fields: Partial<Span> & Pick<Span, 'spanId' | 'name'>): Span {
  return {
    traceId: Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex'),
    traceState: '',
    parentSpanId: Buffer.alloc(0),
    flags: 0,
    kind: 1,
    startTimeUnixNano: '1749000000000000000',
    endTimeUnixNano: '1749000000000000001',
    attributes: [],
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: undefined,
    ...fields,
  };
}
