// A real LLM framework's instrumentation, with no network: the Vercel AI SDK's generateText on its
// own mock model, traced by the OpenTelemetry SDK and sent by the real OTLP protobuf exporter. Its
// spans (`ai.generateText` and the `ai.generateText.doGenerate` child) must become calls with the
// prompt, the answer, the model and the token counts, including the AI SDK's current
// `ai.usage.inputTokens`/`outputTokens` on the root, which Weave does not map.
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { expect, it } from 'vitest';
import { basic, enableContext, exportSpans, recorder } from './otel/otel-clients.ts';
import { describeEachDatabase } from './test-server.ts';

function mockModel() {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-model-1',
    doGenerate: {
      content: [{ type: 'text', text: 'Paris.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 9, noCache: 9, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 2, text: 2, reasoning: 0 },
      },
      warnings: [],
    },
  });
}

describeEachDatabase('the AI SDK traced over OTLP', (getServer) => {
  it('stores generateText and its model call with prompt, answer, model and usage', async () => {
    enableContext();
    const rec = recorder({ 'service.name': 'geo-bot' });
    const result = await generateText({
      model: mockModel(),
      prompt: 'Capital of France?',
      experimental_telemetry: { isEnabled: true, tracer: rec.tracer, functionId: 'geo' },
    });
    expect(result.text).toBe('Paris.');
    const spans = rec.spans();
    expect(spans.map((s) => s.name).sort()).toEqual(['ai.generateText', 'ai.generateText.doGenerate']);

    const { url, aliceKey } = getServer();
    const project = 'acme/ai-sdk';
    const sent = await exportSpans(spans, {
      url,
      encoding: 'protobuf',
      gzip: true,
      headers: { Authorization: basic(aliceKey), project_id: project },
    });
    expect(sent.code).toBe(0);

    const calls = await getServer()
      .client()
      .callsStreamQuery({ project_id: project, filter: { trace_ids: [spans[0]!.spanContext().traceId] } });
    const root = calls.find((c) => c.op_name === 'ai.generateText')!;
    const child = calls.find((c) => c.op_name === 'ai.generateText.doGenerate')!;
    expect(child.parent_id).toBe(root.id);

    // The root: the prompt (a JSON string the SDK sends) parsed, the answer, usage from ai.usage.*.
    expect(root.inputs).toEqual({ 'ai.prompt': { prompt: 'Capital of France?' } });
    expect(root.output).toMatchObject({ 'ai.response': { text: 'Paris.', finishReason: 'stop' } });
    expect(root.summary?.usage).toEqual({
      'mock-model-1': expect.objectContaining({ input_tokens: 9, output_tokens: 2, total_tokens: 11 }),
    });
    expect(root.attributes).toMatchObject({ model: 'mock-model-1', provider: 'mock-provider' });

    // The model call: the messages as the SDK sent them, and the GenAI attributes it adds.
    expect(child.inputs).toEqual({
      'ai.prompt': { messages: [{ role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] }] },
    });
    expect(child.output).toMatchObject({ 'ai.response': { text: 'Paris.' } });
    expect(child.summary?.usage).toEqual({
      'mock-model-1': expect.objectContaining({ input_tokens: 9, output_tokens: 2, total_tokens: 11 }),
    });
    expect(child.attributes).toMatchObject({ model: 'mock-model-1', system: 'mock-provider' });
    expect((child.summary?.weave as { status: string }).status).toBe('success');
  });
});
