// The Vercel AI SDK (`ai` with `@ai-sdk/openai-compatible`) against Weft's router: generateText,
// and streamText with a tool call streamed as deltas (the SDK validates every chunk with zod, so a
// relay that drops `id`, `function` or the finish breaks it), and an upstream failure mid-stream
// surfacing as an error part.
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { completion, textChunks, toolCallChunks, usageOf } from '@weft/router/testing';
import { startRouterKit, type RouterKit } from './router-kit.ts';

describe('the AI SDK through the router', () => {
  let kit: RouterKit;
  beforeAll(async () => {
    kit = await startRouterKit({ freshModels: 2 });
  });
  afterAll(async () => kit?.close());

  test('generateText: the text and the usage', async () => {
    kit.a.script({ kind: 'json', body: completion('Hello from a', { usage: usageOf(7, 3) }) });
    const result = await generateText({ model: kit.aiSdk()('chat'), prompt: 'Say hello', maxRetries: 0 });
    expect(result.text).toBe('Hello from a');
    expect(result.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
  });

  test('streamText with a tool call: the call arrives whole from its deltas, with the usage', async () => {
    kit.a.script({
      kind: 'stream',
      items: toolCallChunks([{ id: 'call_1', name: 'weather', fragments: ['{"ci', 'ty":"Par', 'is"}'] }]),
      usage: usageOf(20, 8),
    });
    const before = kit.a.requests.length;
    const result = streamText({
      model: kit.aiSdk()('chat'),
      prompt: 'What is the weather in Paris?',
      tools: {
        weather: tool({
          description: 'The weather in a city',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
        }),
      },
      maxRetries: 0,
    });
    const calls = [];
    const errors = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-call') calls.push(part);
      if (part.type === 'error') errors.push(part.error);
    }
    expect(errors).toEqual([]);
    expect(calls).toMatchObject([{ toolCallId: 'call_1', toolName: 'weather', input: { city: 'Paris' } }]);
    expect(await result.finishReason).toBe('tool-calls');
    expect(await result.usage).toMatchObject({ inputTokens: 20, outputTokens: 8 });
    // The tool reached the upstream as the SDK sent it; the router asked for usage on its own.
    expect(kit.a.requests[before]!.body).toMatchObject({
      model: 'a-chat',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'weather' } }],
    });
  });

  test('streamText: a stream the upstream cuts mid-answer ends with an error part, not a clean finish', async () => {
    kit.a.script({ kind: 'stream', items: textChunks(['half ']).slice(0, 2), end: 'destroy' });
    const result = streamText({ model: kit.aiSdk()('pair-0'), prompt: 'Say hello', maxRetries: 0 });
    let text = '';
    const errors = [];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'error') errors.push(part.error);
    }
    expect(text).toBe('half ');
    expect(errors.length).toBe(1);
  });
});
