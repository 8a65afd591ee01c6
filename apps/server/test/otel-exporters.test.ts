// OTLP/HTTP ingest with the real OpenTelemetry JS exporters (protobuf and JSON, with and without
// gzip) on both databases: a span tree with an error becomes calls read back through
// calls/stream_query and call/read; re-sent spans do not duplicate; a child sent before its
// parent still links to it.
import { describe, expect, it } from 'vitest';
import type { CallSchema } from '@weft/types';
import { basic, exportSpans, recordAgentRun, recorder, type Encoding } from './otel/otel-clients.ts';
import { describeEachDatabase } from './test-server.ts';

/** Whole milliseconds of an OpenTelemetry [seconds, nanoseconds] time. */
const ms = (t: [number, number]) => t[0] * 1000 + Math.floor(t[1] / 1e6);

const VARIANTS: Array<{ encoding: Encoding; gzip: boolean }> = [
  { encoding: 'protobuf', gzip: false },
  { encoding: 'protobuf', gzip: true },
  { encoding: 'json', gzip: false },
  { encoding: 'json', gzip: true },
];

describeEachDatabase('OTLP exporters', (getServer) => {
  const readTrace = async (project: string, traceId: string) =>
    getServer()
      .client()
      .callsStreamQuery({ project_id: project, filter: { trace_ids: [traceId] } });

  for (const { encoding, gzip } of VARIANTS) {
    describe(`${encoding}${gzip ? ' + gzip' : ''}`, () => {
      it('stores a span tree with an error as calls', async () => {
        const { url, aliceKey } = getServer();
        const project = `acme/otel-${encoding}-${gzip ? 'gz' : 'plain'}`;
        const rec = recorder();
        recordAgentRun(rec.tracer);
        const spans = rec.spans();
        const result = await exportSpans(spans, { url, encoding, gzip, headers: { Authorization: basic(aliceKey), project_id: project } });
        expect(result.error?.message).toBeUndefined();
        expect(result.code).toBe(0);

        const root = spans.find((s) => s.name === 'agent.run')!;
        const calls = await readTrace(project, root.spanContext().traceId);
        expect(calls.map((c) => c.op_name).sort()).toEqual(['agent.run', 'chat gpt-4o-mini', 'tool refund_order']);
        const byName = new Map(calls.map((c) => [c.op_name, c]));
        const [rootCall, llm, tool] = ['agent.run', 'chat gpt-4o-mini', 'tool refund_order'].map((n) => byName.get(n)!) as [
          CallSchema,
          CallSchema,
          CallSchema,
        ];

        // Ids are the span ids in hex; parents link by them; times are the spans' own.
        expect(rootCall.id).toBe(root.spanContext().spanId);
        expect(rootCall.trace_id).toBe(root.spanContext().traceId);
        expect(rootCall.parent_id ?? null).toBeNull();
        expect(llm.parent_id).toBe(rootCall.id);
        expect(tool.parent_id).toBe(rootCall.id);
        expect(Date.parse(rootCall.started_at)).toBe(ms(root.startTime));
        expect(Date.parse(rootCall.ended_at!)).toBe(ms(root.endTime));
        expect(rootCall.display_name).toBe('Refund agent');
        expect(rootCall.thread_id).toBe('conv-42');

        // The LLM call: GenAI inputs, output, usage under the response model, model attributes.
        expect(llm.inputs).toEqual({ 'gen_ai.input.messages': [{ role: 'user', parts: [{ type: 'text', content: 'Refund order 7?' }] }] });
        expect(llm.output).toEqual({ 'gen_ai.output.messages': [{ role: 'assistant', parts: [{ type: 'text', content: 'Checking.' }] }] });
        expect(llm.summary?.usage).toEqual({ 'gpt-4o-mini-2024-07-18': { input_tokens: 12, output_tokens: 4, total_tokens: 16 } });
        expect(llm.attributes).toMatchObject({ model: 'gpt-4o-mini-2024-07-18', system: 'openai', operation: 'chat' });
        expect(llm.exception ?? null).toBeNull();
        expect((llm.summary?.weave as { status: string }).status).toBe('success');

        // The failed tool: the status message and the recorded exception, and an error status.
        expect(tool.exception).toContain('refund failed');
        expect(tool.exception).toContain('RangeError: order 7 is too old to refund');
        expect((tool.summary?.weave as { status: string }).status).toBe('error');
        expect(tool.inputs).toEqual({ 'input.value': { order: 7 } });

        // Nothing sent is lost: the raw span, exact nanoseconds, resource and scope are kept.
        const raw = (tool.attributes as { otel_span: Record<string, unknown> }).otel_span;
        const toolSpan = spans.find((s) => s.name === 'tool refund_order')!;
        const nanos = BigInt(toolSpan.startTime[0]) * 1_000_000_000n + BigInt(toolSpan.startTime[1]);
        expect(raw.start_time_unix_nano).toBe(nanos.toString());
        expect(raw.status).toEqual({ code: 'STATUS_CODE_ERROR', message: 'refund failed' });
        expect(raw.resource).toMatchObject({ 'service.name': 'otel-test' });
        expect(raw.scope).toMatchObject({ name: 'weft-test', version: '1.0.0' });
        expect((raw.events as Array<{ name: string }>).map((e) => e.name)).toEqual(['exception']);

        // call/read answers the same call.
        const read = await getServer()
          .client()
          .POST('/call/read', { body: { project_id: project, id: tool.id } });
        expect(read.call.exception).toBe(tool.exception);
      });
    });
  }

  it('re-sent spans replace their calls; a child sent before its parent links to it', async () => {
    const { url, aliceKey } = getServer();
    const project = 'acme/otel-retry';
    const rec = recorder();
    recordAgentRun(rec.tracer);
    const spans = rec.spans();
    const root = spans.find((s) => s.name === 'agent.run')!;
    const children = spans.filter((s) => s !== root);
    const headers = { Authorization: basic(aliceKey), project_id: project };
    expect((await exportSpans(children, { url, encoding: 'protobuf', headers })).code).toBe(0);
    expect((await exportSpans(spans, { url, encoding: 'json', headers })).code).toBe(0);
    expect((await exportSpans(spans, { url, encoding: 'protobuf', gzip: true, headers })).code).toBe(0);
    const calls = await readTrace(project, root.spanContext().traceId);
    expect(calls).toHaveLength(3);
    const rootId = root.spanContext().spanId;
    expect(calls.filter((c) => c.parent_id === rootId)).toHaveLength(2);
  });

  it("works with the README's exporter settings (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS)", async () => {
    const { url, aliceKey } = getServer();
    const env = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${url}/otel/v1/traces`,
      // As README.md writes it: percent-encoded values, the key as Basic auth's password.
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Basic%20${Buffer.from(`api:${aliceKey}`).toString('base64')},project_id=acme/from-env`,
    };
    Object.assign(process.env, env);
    try {
      const rec = recorder();
      recordAgentRun(rec.tracer);
      const spans = rec.spans();
      expect((await exportSpans(spans, { encoding: 'protobuf' })).code).toBe(0);
      expect(await readTrace('acme/from-env', spans[0]!.spanContext().traceId)).toHaveLength(3);
    } finally {
      for (const key of Object.keys(env)) delete process.env[key];
    }
  });

  it('prices these calls with include_costs, like any other', async () => {
    const { url, aliceKey } = getServer();
    const project = 'acme/otel-costs';
    const rec = recorder();
    const span = rec.tracer.startSpan('chat', {
      attributes: {
        'gen_ai.request.model': 'OpenPipe/Qwen3-14B-Instruct',
        'gen_ai.usage.input_tokens': 1000,
        'gen_ai.usage.output_tokens': 500,
      },
    });
    span.end();
    expect(
      (await exportSpans(rec.spans(), { url, encoding: 'json', headers: { Authorization: basic(aliceKey), project_id: project } })).code,
    ).toBe(0);
    const [call] = await getServer().client().callsStreamQuery({ project_id: project, include_costs: true });
    const costs = (call!.summary?.weave as { costs?: Record<string, { prompt_tokens: number; completion_tokens: number }> }).costs;
    expect(costs?.['OpenPipe/Qwen3-14B-Instruct']).toMatchObject({ prompt_tokens: 1000, completion_tokens: 500 });
  });

  it('takes the project from the resource attributes wandb.entity and wandb.project', async () => {
    const { url, aliceKey } = getServer();
    const rec = recorder({ 'service.name': 'otel-test', 'wandb.entity': 'acme', 'wandb.project': 'from-resource' });
    recordAgentRun(rec.tracer);
    const spans = rec.spans();
    expect((await exportSpans(spans, { url, encoding: 'json', headers: { Authorization: basic(aliceKey) } })).code).toBe(0);
    const calls = await readTrace('acme/from-resource', spans[0]!.spanContext().traceId);
    expect(calls).toHaveLength(3);
  });
});
