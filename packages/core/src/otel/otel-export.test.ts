// An export → its projects (header, else the resource's wandb.entity and wandb.project) and its
// calls, with the spans that cannot be stored counted and a few explained (OTLP partial success).
import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors.ts';
import { otlpCallChunks, otlpCalls, otlpProjects, SpanTally } from './otel-export.ts';
import type { ExportTraceServiceRequest } from './proto/opentelemetry/proto/collector/trace/v1/trace_service.generated.ts';
import type { Span } from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';
import { fixtureSpan } from './span-fixture.ts';

const span = (n: number, fields: Partial<Span> = {}): Span =>
  fixtureSpan({ spanId: Buffer.from(n.toString(16).padStart(16, '0'), 'hex'), name: `span ${n}`, ...fields });

function exportOf(resources: Array<{ attrs?: Record<string, string>; spans: Span[] }>): ExportTraceServiceRequest {
  return {
    resourceSpans: resources.map(({ attrs = {}, spans }) => ({
      resource: { attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })), droppedAttributesCount: 0 },
      scopeSpans: [{ scope: undefined, spans, schemaUrl: '' }],
      schemaUrl: '',
    })),
  };
}

describe('otlpProjects', () => {
  const twoResources = exportOf([
    { attrs: { 'wandb.entity': 'acme', 'wandb.project': 'one' }, spans: [span(1)] },
    { attrs: { 'wandb.entity': 'acme', 'wandb.project': 'two' }, spans: [span(2)] },
  ]);

  it('the header wins over every resource', () => {
    expect(otlpProjects(twoResources, 'acme/header')).toEqual(['acme/header', 'acme/header']);
  });

  it('without the header, each resource names its own project', () => {
    expect(otlpProjects(twoResources, undefined)).toEqual(['acme/one', 'acme/two']);
  });

  it('spans with neither: 400 naming both ways; a resource without spans needs none', () => {
    const none = exportOf([{ spans: [span(1)] }]);
    const err = (() => {
      try {
        otlpProjects(none, undefined);
      } catch (e) {
        return e as WeftError;
      }
    })();
    expect(err).toBeInstanceOf(WeftError);
    expect(err?.status).toBe(400);
    expect(err?.message).toMatch(/project_id/);
    expect(err?.message).toMatch(/wandb\.entity and wandb\.project/);
    expect(otlpProjects(exportOf([{ spans: [] }]), undefined)).toEqual(['']);
  });

  it('a resource project that is not <entity>/<project> is a 400', () => {
    const bad = exportOf([{ attrs: { 'wandb.entity': 'acme/x', 'wandb.project': 'p' }, spans: [span(1)] }]);
    expect(() => otlpProjects(bad, undefined)).toThrow(/not a project id/);
  });
});

describe('otlpCalls', () => {
  it('stores what it can: all refusals counted, five explained', async () => {
    const spans = [span(1), ...Array.from({ length: 7 }, (_, i) => span(10 + i, { name: '' })), span(2)];
    const batch = await otlpCalls(exportOf([{ spans }]), ['acme/p']);
    expect(batch.calls.map((c) => c.op_name)).toEqual(['span 1', 'span 2']);
    expect(batch.rejected).toBe(7);
    expect(batch.message).toMatch(/^7 span\(s\) not stored: /);
    expect(batch.message.match(/the name is empty/g)).toHaveLength(5);
    expect(batch.message).toMatch(/; and 2 more$/);
  });

  it('a refused resource counts its spans, explained once; one without spans refuses nothing', async () => {
    const nan = { key: 'x', value: { doubleValue: Number.NaN } };
    const request = exportOf([
      { spans: Array.from({ length: 4 }, (_, i) => span(i + 1)) },
      { spans: [] },
      { spans: [span(9, { name: '' })] },
    ]);
    for (const rs of request.resourceSpans.slice(0, 2)) rs.resource!.attributes.push(nan);
    const batch = await otlpCalls(request, ['acme/p', 'acme/p', 'acme/p']);
    expect(batch.calls).toEqual([]);
    expect(batch.rejected).toBe(5);
    expect(batch.message.match(/NaN/g)).toHaveLength(1);
    expect(batch.message).toMatch(/the name is empty$/);
    expect(batch.message).not.toMatch(/more/);
  });

  it('nothing rejected: an empty message', async () => {
    const batch = await otlpCalls(exportOf([{ spans: [span(1)] }]), ['acme/p']);
    expect(batch).toMatchObject({ rejected: 0, message: '' });
  });

  it('each resource into its project; chunks of the asked size, in order', async () => {
    const request = exportOf([
      { spans: Array.from({ length: 5 }, (_, i) => span(i + 1)) },
      { spans: Array.from({ length: 3 }, (_, i) => span(i + 100)) },
    ]);
    const chunks = [];
    for await (const chunk of otlpCallChunks(request, ['acme/a', 'acme/b'], new SpanTally(), 3)) chunks.push(chunk);
    expect(chunks.map((c) => c.length)).toEqual([3, 3, 2]);
    expect(chunks.flat().map((c) => c.project_id)).toEqual([...Array(5).fill('acme/a'), ...Array(3).fill('acme/b')]);
  });
});
