import { describe, expect, it } from 'vitest';
import { callKind } from './call-kind.ts';

const op = (name: string) => `weave:///acme/bot/op/${name}:Yz6f0ZI7cwVvXCzNXbLNXrSW0CCw5C8HJRg0yFbXm0w`;
const call = (op_name: string, more: { attributes?: object; summary?: object; display_name?: string } = {}) => ({
  op_name,
  inputs: {},
  attributes: (more.attributes ?? {}) as Record<string, never>,
  summary: more.summary as Record<string, never> | undefined,
  display_name: more.display_name,
});

describe('call kind', () => {
  it('takes a declared kind first, in each convention’s spelling', () => {
    expect(callKind(call(op('step'), { attributes: { weave: { kind: 'tool' } } }))).toBe('tool');
    expect(callKind(call(op('step'), { attributes: { 'weave.kind': 'agent' } }))).toBe('agent');
    // OTel ingest: openinference's upper case, traceloop's lower case.
    expect(callKind(call('ChatOpenAI', { attributes: { kind: 'LLM' } }))).toBe('llm');
    expect(callKind(call('vector_lookup', { attributes: { kind: 'RETRIEVER' } }))).toBe('retriever');
    expect(callKind(call('judge', { attributes: { kind: 'EVALUATOR' } }))).toBe('evaluation');
    // A declared kind beats what the name suggests.
    expect(callKind(call(op('search_agent'), { attributes: { weave: { kind: 'tool' } } }))).toBe('tool');
    // A kind we do not draw (a chain) falls through to the other rules.
    expect(callKind(call(op('run_agent'), { attributes: { kind: 'CHAIN' } }))).toBe('agent');
    expect(callKind(call(op('pipeline'), { attributes: { kind: 'workflow' } }))).toBe('op');
  });

  it('reads the GenAI operation name', () => {
    expect(callKind(call('span', { attributes: { operation: 'execute_tool' } }))).toBe('tool');
    expect(callKind(call('span', { attributes: { operation: 'chat' } }))).toBe('llm');
    expect(callKind(call('span', { attributes: { operation: 'invoke_agent' } }))).toBe('agent');
  });

  it('knows Weave’s evaluation ops and markers', () => {
    expect(callKind(call(op('Evaluation.evaluate'), { display_name: 'eval-1_model' }))).toBe('evaluation');
    expect(callKind(call(op('Evaluation.predict_and_score')))).toBe('evaluation');
    expect(callKind(call(op('Evaluation.summarize')))).toBe('evaluation');
    expect(callKind(call(op('ExactMatch.score')))).toBe('evaluation');
    expect(callKind(call(op('predict'), { attributes: { _weave_eval_meta: { imperative: true } } }))).toBe('evaluation');
    // Token usage of the scorer's judge model does not make the score call an LLM call.
    expect(callKind(call(op('Judge.score'), { summary: { usage: { 'gpt-4o': { total_tokens: 3 } } } }))).toBe('evaluation');
  });

  it('calls a call with token usage, or a provider’s completion op, an LLM call', () => {
    expect(callKind(call(op('answer'), { summary: { usage: { 'gpt-4o-mini': { prompt_tokens: 1 } } } }))).toBe('llm');
    expect(callKind(call(op('openai.chat.completions.create')))).toBe('llm');
    expect(callKind(call(op('anthropic.Messages.create')))).toBe('llm');
    expect(callKind(call(op('answer'), { summary: { usage: {} } }))).toBe('op');
  });

  it('falls back to the op’s name, then to a plain op', () => {
    expect(callKind(call(op('run_agent')))).toBe('agent');
    expect(callKind(call(op('retrieve')))).toBe('retriever');
    expect(callKind(call(op('web_search')))).toBe('retriever');
    expect(callKind(call(op('calculator_tool')))).toBe('tool');
    expect(callKind(call(op('lookup_user')))).toBe('op');
    expect(callKind(call('plain_function'))).toBe('op');
  });
});
