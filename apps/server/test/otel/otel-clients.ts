// Real OpenTelemetry JS clients for the OTLP tests: spans are recorded by the SDK's own tracer,
// then sent by the real OTLP exporters (protobuf or JSON, gzip or not), whose export result is
// returned so a test sees what an application's exporter would have concluded.
import { context, trace, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AsyncHooksContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

export type Encoding = 'protobuf' | 'json';

export interface Recorder {
  tracer: Tracer;
  spans(): ReadableSpan[];
}

/** A tracer whose finished spans are kept in memory (the AI SDK needs the async-hooks context manager). */
export function recorder(resource: Record<string, string> = { 'service.name': 'otel-test' }): Recorder {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(resource),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  return { tracer: provider.getTracer('weft-test', '1.0.0'), spans: () => memory.getFinishedSpans() };
}

let contextManager: AsyncHooksContextManager | undefined;
export function enableContext(): void {
  if (contextManager) return;
  contextManager = new AsyncHooksContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

export interface ExportOptions {
  /** Unset: the exporter reads OTEL_EXPORTER_OTLP_* from the environment, as an app's would. */
  url?: string;
  encoding: Encoding;
  gzip?: boolean;
  headers?: Record<string, string>;
}

/** Sends spans with the real exporter; resolves to its result (code 0 = success). */
export async function exportSpans(spans: ReadableSpan[], opts: ExportOptions): Promise<{ code: number; error?: Error }> {
  const config =
    opts.url === undefined
      ? {}
      : {
          url: `${opts.url}/otel/v1/traces`,
          headers: opts.headers ?? {},
          ...(opts.gzip ? { compression: 'gzip' as never } : {}),
          timeoutMillis: 10_000,
        };
  const exporter = opts.encoding === 'protobuf' ? new ProtoExporter(config) : new JsonExporter(config);
  try {
    return await new Promise((resolve) => exporter.export(spans, resolve));
  } finally {
    await exporter.shutdown();
  }
}

export const basic = (key: string) => `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;

/**
 * An agent run as an instrumented app records it: a root, an LLM call with GenAI attributes, and
 * a tool call that fails with a recorded exception.
 */
export function recordAgentRun(tracer: Tracer): void {
  tracer.startActiveSpan('agent.run', (root) => {
    root.setAttribute('wandb.display_name', 'Refund agent');
    root.setAttribute('gen_ai.conversation.id', 'conv-42');
    const llm = tracer.startSpan('chat gpt-4o-mini', {}, trace.setSpan(context.active(), root));
    llm.setAttributes({
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Refund order 7?' }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Checking.' }] }]),
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 4,
    });
    llm.end();
    const tool = tracer.startSpan('tool refund_order', {}, trace.setSpan(context.active(), root));
    tool.setAttribute('input.value', JSON.stringify({ order: 7 }));
    tool.recordException(new RangeError('order 7 is too old to refund'));
    tool.setStatus({ code: SpanStatusCode.ERROR, message: 'refund failed' });
    tool.end();
    root.end();
  });
}
