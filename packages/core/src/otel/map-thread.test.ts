// The mapping thread gives the calls the main thread would map, in the same chunks, with the same
// refusals; a malformed span is the same 400; an export abandoned half-way frees the thread.
import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors.ts';
import { readOtlpProtobuf } from './decode-protobuf.ts';
import { mapThreadCounts, mapThreadWorker, otlpCallChunksOffMain, THREAD_MIN_SPANS } from './map-thread.ts';
import { otlpCallChunks, SpanTally } from './otel-export.ts';
import { ExportTraceServiceRequest } from './proto/opentelemetry/proto/collector/trace/v1/trace_service.generated.ts';
import type { Span } from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';
import type { OtelCall } from './span-to-call.ts';
import { fixtureSpan } from './span-fixture.ts';

const span = (n: number, fields: Partial<Span> = {}): Span =>
  fixtureSpan({
    spanId: Buffer.from((n + 1).toString(16).padStart(16, '0'), 'hex'),
    name: `span ${n}`,
    startTimeUnixNano: String(1749000000000000000n + BigInt(n)),
    endTimeUnixNano: String(1749000000000000001n + BigInt(n)),
    attributes: [{ key: 'gen_ai.prompt', value: { stringValue: `question ${n} é\u2028` } }],
    ...fields,
  });

/** A protobuf body: two resources, every 50th span refused (an empty name). */
function body(spans: number, tamper?: (bytes: Uint8Array) => void): Uint8Array {
  const half = Math.floor(spans / 2);
  const of = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => span(from + i, (from + i) % 50 === 7 ? { name: '' } : {}));
  const request: ExportTraceServiceRequest = {
    resourceSpans: [
      { resource: undefined, scopeSpans: [{ scope: undefined, spans: of(0, half), schemaUrl: '' }], schemaUrl: '' },
      { resource: undefined, scopeSpans: [{ scope: undefined, spans: of(half, spans), schemaUrl: '' }], schemaUrl: '' },
    ],
  };
  const bytes = ExportTraceServiceRequest.encode(request).finish();
  tamper?.(bytes);
  return bytes;
}

const refusedIn = (spans: number) => Math.floor((spans - 8) / 50) + 1;

async function collect(chunks: AsyncGenerator<OtelCall[]>): Promise<OtelCall[][]> {
  const out = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

const PROJECTS = ['acme/a', 'acme/b'];

describe('otlpCallChunksOffMain', () => {
  it('maps a large export on the thread: the same calls in the same chunks, the same refusals', async () => {
    const bytes = body(3 * THREAD_MIN_SPANS);
    const inPlaceTally = new SpanTally();
    const inPlace = await collect(otlpCallChunks(await readOtlpProtobuf(bytes), PROJECTS, inPlaceTally, 100));
    const before = mapThreadCounts();
    const threadTally = new SpanTally();
    const offMain = await collect(otlpCallChunksOffMain(await readOtlpProtobuf(bytes), PROJECTS, threadTally, 100));
    expect(offMain).toEqual(inPlace);
    // A body not given away is copied: the caller may read it again.
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(
      await collect(otlpCallChunksOffMain(await readOtlpProtobuf(bytes, undefined, { given: true }), PROJECTS, new SpanTally(), 100)),
    ).toEqual(inPlace);
    // Given away, it moved to the thread rather than being copied (a 32 MB export is not held twice).
    expect(bytes.byteLength).toBe(0);
    expect(offMain.flat()).toHaveLength(3 * THREAD_MIN_SPANS - refusedIn(3 * THREAD_MIN_SPANS));
    expect(threadTally.rejected).toBe(refusedIn(3 * THREAD_MIN_SPANS));
    expect(threadTally.message).toBe(inPlaceTally.message);
    // It ran on a thread: one was started for it (or was already there), and none stopped.
    const after = mapThreadCounts();
    expect(after.starts).toBeGreaterThanOrEqual(1);
    expect(after.stops).toBe(before.stops);
  });

  it('copies a body given away that is a view into a larger buffer, which stays whole', async () => {
    const bytes = body(THREAD_MIN_SPANS);
    const shared = new Uint8Array(bytes.length + 16);
    shared.set(bytes, 8);
    const view = shared.subarray(8, 8 + bytes.length);
    const calls = (
      await collect(otlpCallChunksOffMain(await readOtlpProtobuf(view, undefined, { given: true }), PROJECTS, new SpanTally(), 100))
    ).flat();
    expect(calls).toHaveLength(THREAD_MIN_SPANS - refusedIn(THREAD_MIN_SPANS));
    expect(Buffer.from(view).equals(Buffer.from(body(THREAD_MIN_SPANS)))).toBe(true);
  });

  it('maps a small export in place, without a thread', async () => {
    const before = mapThreadCounts().starts;
    const small = await readOtlpProtobuf(body(10));
    const calls = (await collect(otlpCallChunksOffMain(small, PROJECTS, new SpanTally(), 100))).flat();
    expect(calls.map((c) => c.op_name)).toEqual(Array.from({ length: 10 }, (_, i) => `span ${i}`).filter((n) => n !== 'span 7'));
    expect(mapThreadCounts().starts).toBe(before);
  });

  it('a span that does not decode is the same 400 as in place, and the thread maps the next export', async () => {
    // The last span's name length is made to overrun its message.
    const bad = body(2 * THREAD_MIN_SPANS, (bytes) => {
      const name = `span ${2 * THREAD_MIN_SPANS - 1}`;
      // field 5 (name), length-delimited: the length is made to run past the span's end.
      const at = Buffer.from(bytes).lastIndexOf(Buffer.from([0x2a, name.length, ...Buffer.from(name)]));
      expect(at).toBeGreaterThan(0);
      bytes[at + 1] = 0x7f;
    });
    const err = await collect(otlpCallChunksOffMain(await readOtlpProtobuf(bad), PROJECTS, new SpanTally(), 100)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WeftError);
    expect(err).toMatchObject({ status: 400, errorType: 'InvalidRequest' });
    expect((err as Error).message).toMatch(/^Malformed OTLP protobuf: a span: /);
    const good = await collect(otlpCallChunksOffMain(await readOtlpProtobuf(body(THREAD_MIN_SPANS)), PROJECTS, new SpanTally(), 100));
    expect(good.flat()).toHaveLength(THREAD_MIN_SPANS - refusedIn(THREAD_MIN_SPANS));
    expect(mapThreadCounts().stops).toBe(0);
  });

  it('an export abandoned after its first chunk (its insert failed) frees the thread for the next', async () => {
    // Far more chunks than the thread maps ahead: were it still waiting for room, the next export would never start.
    const big = await readOtlpProtobuf(body(40 * 100));
    for await (const chunk of otlpCallChunksOffMain(big, PROJECTS, new SpanTally(), 100)) {
      expect(chunk).toHaveLength(100);
      break;
    }
    const next = await collect(otlpCallChunksOffMain(await readOtlpProtobuf(body(THREAD_MIN_SPANS)), PROJECTS, new SpanTally(), 100));
    expect(next.flat()).toHaveLength(THREAD_MIN_SPANS - refusedIn(THREAD_MIN_SPANS));
  });

  // Last: it stops the thread.
  it('a thread that stops fails the export it was mapping with a 503; the next export starts a new thread', async () => {
    const big = await readOtlpProtobuf(body(40 * 100));
    const { starts, stops } = mapThreadCounts();
    const chunks = otlpCallChunksOffMain(big, PROJECTS, new SpanTally(), 100);
    expect((await chunks.next()).value).toHaveLength(100);
    await mapThreadWorker()!.terminate();
    const err = await collect(chunks).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503, errorType: 'ServiceUnavailable' });
    expect(mapThreadCounts()).toEqual({ starts, stops: stops + 1 });
    const next = await collect(otlpCallChunksOffMain(await readOtlpProtobuf(body(THREAD_MIN_SPANS)), PROJECTS, new SpanTally(), 100));
    expect(next.flat()).toHaveLength(THREAD_MIN_SPANS - refusedIn(THREAD_MIN_SPANS));
    expect(mapThreadCounts()).toEqual({ starts: starts + 1, stops: stops + 1 });
  });
});
