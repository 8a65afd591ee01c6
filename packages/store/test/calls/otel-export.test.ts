// POST /otel/v1/traces in the store: a whole export in one transaction, given turns of the event
// loop; re-sent spans replace their calls; spans that cannot be stored are counted, the rest kept.
import {
  ExportTraceServiceRequest,
  mapThreadCounts,
  otlpProjects,
  readOtlpProtobuf,
  type ExportTraceServiceRequest as Req,
} from '@weft/core';
import { fixtureSpan } from '@weft/core/testing';
import type { CallSchema, OtlpExportRes } from '@weft/types';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { turnsDuring } from '../event-loop-turns.ts';
import { callsOf, ctx } from './call-fixtures.ts';

const T0 = 1_749_000_000_000_000_000n;
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** `count` spans of traces of 10 (each trace's first span the parent of the others), as decoded. */
function exportOf(count: number, name = 'chat'): Req {
  const spans = Array.from({ length: count }, (_, i) =>
    fixtureSpan({
      traceId: Buffer.from(hex(Math.floor(i / 10) + 1, 32), 'hex'),
      spanId: Buffer.from(hex(i + 1, 16), 'hex'),
      parentSpanId: i % 10 === 0 ? Buffer.alloc(0) : Buffer.from(hex(i - (i % 10) + 1, 16), 'hex'),
      name,
      kind: 3,
      startTimeUnixNano: String(T0 + BigInt(i) * 1_000_000n),
      endTimeUnixNano: String(T0 + BigInt(i) * 1_000_000n + 500_000_000n),
      attributes: [
        { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
        { key: 'gen_ai.usage.input_tokens', value: { intValue: '10' } },
      ],
    }),
  );
  // Through the protobuf codec, as the server receives it.
  const bytes = ExportTraceServiceRequest.encode({
    resourceSpans: [
      { resource: { attributes: [], droppedAttributesCount: 0 }, scopeSpans: [{ scope: undefined, spans, schemaUrl: '' }], schemaUrl: '' },
    ],
  }).finish();
  return ExportTraceServiceRequest.decode(bytes);
}

/** The same export as the server reads a protobuf body: spans left as bytes, mapped on the mapping thread. */
async function bodyOf(request: Req, tamper?: (bytes: Uint8Array) => void) {
  const bytes = ExportTraceServiceRequest.encode(request).finish();
  tamper?.(bytes);
  return readOtlpProtobuf(bytes);
}

/** Every call of a project (the store streams them). */
async function callsIn(calls: ReturnType<typeof callsOf>, project: string) {
  const out = [];
  for await (const call of calls.callsStreamQuery({ project_id: project }, ctx) as AsyncIterable<CallSchema>) out.push(call);
  return out;
}

describeEachDialect('otel export', (getDb) => {
  it('stores a large export in one transaction while the event loop keeps turning', async () => {
    const calls = callsOf(getDb());
    const project = 'otel/large';
    const request = exportOf(5000);
    const { value, turns } = await turnsDuring(() => calls.otelExport({ request, projects: otlpProjects(request, project) }, ctx));
    expect(value).toEqual({});
    expect(turns).toBeGreaterThan(2);
    const all = await callsIn(calls, project);
    expect(all).toHaveLength(5000);
    const child = all.find((c) => c.id === hex(12, 16))!;
    expect(child.parent_id).toBe(hex(11, 16));
    expect(child.summary?.usage).toEqual({ 'gpt-4o-mini': { input_tokens: 10, total_tokens: 10 } });
    expect(child.svc_user_id).toBe('alice');
  });

  it('replaces a re-sent span instead of adding a call', async () => {
    const calls = callsOf(getDb());
    const project = 'otel/retry';
    const first = exportOf(20, 'first');
    await calls.otelExport({ request: first, projects: otlpProjects(first, project) }, ctx);
    const again = exportOf(20, 'second');
    await calls.otelExport({ request: again, projects: otlpProjects(again, project) }, ctx);
    const all = await callsIn(calls, project);
    expect(all).toHaveLength(20);
    expect(new Set(all.map((c) => c.op_name))).toEqual(new Set(['second']));
  });

  it('stores the spans it can and counts the rest', async () => {
    const calls = callsOf(getDb());
    const project = 'otel/partial';
    const request = exportOf(3);
    const spans = request.resourceSpans[0]!.scopeSpans[0]!.spans;
    spans[1]!.name = '';
    spans[2]!.attributes.push({ key: 'bad', value: { stringValue: 'a\u0000b' } });
    const answer = (await calls.otelExport({ request, projects: otlpProjects(request, project) }, ctx)) as OtlpExportRes;
    expect(answer).toEqual({ partialSuccess: { rejectedSpans: '2', errorMessage: expect.stringContaining('the name is empty') } });
    expect(answer.partialSuccess?.errorMessage).toContain('U+0000');
    expect((await callsIn(calls, project)).map((c) => c.id)).toEqual([hex(1, 16)]);
  });

  it('stores a protobuf export mapped on the mapping thread exactly as one mapped in place', async () => {
    const calls = callsOf(getDb());
    const request = exportOf(1200);
    const starts = mapThreadCounts().starts;
    const threaded = await bodyOf(request);
    expect(await calls.otelExport({ request: threaded, projects: otlpProjects(threaded, 'otel/thread') }, ctx)).toEqual({});
    expect(mapThreadCounts().starts).toBeGreaterThanOrEqual(Math.max(starts, 1));
    expect(await calls.otelExport({ request, projects: otlpProjects(request, 'otel/in-place') }, ctx)).toEqual({});
    const strip = ({ project_id: _, ...call }: CallSchema) => call;
    const onThread = (await callsIn(calls, 'otel/thread')).map(strip);
    expect(onThread).toHaveLength(1200);
    expect(onThread).toEqual((await callsIn(calls, 'otel/in-place')).map(strip));
    expect(mapThreadCounts().stops).toBe(0);
  });

  it('a span that does not decode after many were stored: a 400, and nothing of the export is stored', async () => {
    const calls = callsOf(getDb());
    const project = 'otel/late-malformed';
    const request = exportOf(1200);
    const bad = await bodyOf(request, (bytes) => {
      // The last span's name ("chat", field 5) is made to run past the span's end.
      const at = Buffer.from(bytes).lastIndexOf(Buffer.from([0x2a, 4, ...Buffer.from('chat')]));
      bytes[at + 1] = 0x7f;
    });
    await expect(calls.otelExport({ request: bad, projects: otlpProjects(bad, project) }, ctx)).rejects.toMatchObject({
      status: 400,
      errorType: 'InvalidRequest',
    });
    expect(await callsIn(calls, project)).toEqual([]);
  });
});
