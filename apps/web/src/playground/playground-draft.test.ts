import { describe, expect, it } from 'vitest';
import { draftFromInputs, isLlmInputs, newDraft, requestOf } from './playground-draft.ts';

describe('a traced LLM call opened in the playground', () => {
  const inputs = {
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:x' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', content: '42', tool_call_id: 't1' },
    ],
    temperature: 0.3,
    max_completion_tokens: 200,
    stop: ['END', '###'],
    seed: 7,
    stream: true,
    tools: [{ type: 'function', function: { name: 'f' } }],
    self: null,
  };

  it('carries the model, messages (content parts and tool fields unchanged) and parameters back into the same request', () => {
    const draft = draftFromInputs(inputs, 'acme/support-bot')!;
    expect(draft.params).toEqual({ temperature: '0.3', max_tokens: '200', top_p: '', stop: 'END\n###', seed: '7' });
    expect(draft.project).toBe('acme/support-bot');
    expect(draft.notCarried).toEqual(['tools']);
    const request = requestOf(draft);
    expect(request.body).toEqual({
      model: 'gpt-4o-mini',
      messages: inputs.messages.map((m) => (m.content === null ? { ...m, content: '' } : m)),
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      max_tokens: 200,
      stop: ['END', '###'],
      seed: 7,
    });
  });

  it('is offered only for calls whose inputs have a model and chat messages', () => {
    expect(isLlmInputs(inputs)).toBe(true);
    expect(isLlmInputs({ model: 'm', prompt: 'hi' })).toBe(false);
    expect(isLlmInputs({ messages: [{ role: 'user', content: 'hi' }] })).toBe(false);
    expect(isLlmInputs({ model: 'm', messages: [] })).toBe(false);
  });
});

describe('the request a draft makes', () => {
  it('names each field at fault instead of sending it', () => {
    const draft = newDraft('');
    draft.params = { temperature: '3', max_tokens: '1.5', top_p: 'x', stop: 'a\nb\nc\nd\ne', seed: '' };
    draft.project = 'no-slash';
    const { problems } = requestOf(draft);
    expect(Object.keys(problems ?? {}).sort()).toEqual(['max_tokens', 'messages', 'model', 'project', 'stop', 'temperature', 'top_p']);
  });

  it('leaves out a blank system prompt and the parameters left empty', () => {
    const draft = newDraft('m/one');
    draft.messages[1]!.content = 'Hi';
    expect(requestOf(draft).body).toEqual({
      model: 'm/one',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
