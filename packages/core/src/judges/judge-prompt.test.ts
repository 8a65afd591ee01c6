import { describe, expect, it } from 'vitest';
import { readJudgeModel, readJudgeScorer, readMonitor } from './judge-objects.ts';
import { formatScoringPrompt, judgeChatRequest, judgeResult, sampledForMonitor } from './judge-prompt.ts';

describe('the scoring prompt, as Python str.format', () => {
  it('fills named fields, keeps doubled braces, writes non-strings as JSON', () => {
    expect(formatScoringPrompt('Q: {question}\nA: {output}\n{{"score": n}}', { question: 'Why?', output: { text: 'Because' } })).toBe(
      'Q: Why?\nA: {"text":"Because"}\n{"score": n}',
    );
    expect(formatScoringPrompt('{n} and {none}', { n: 3, none: null })).toBe('3 and null');
  });

  it('names what it cannot fill', () => {
    expect(formatScoringPrompt('{missing}', {})).toEqual({ error: expect.stringContaining('{missing}') as string });
    expect(formatScoringPrompt('{a.b}', { a: {} })).toEqual({ error: expect.stringContaining('not a plain name') as string });
    expect(formatScoringPrompt('{open', {})).toHaveProperty('error');
    expect(formatScoringPrompt('close}', {})).toHaveProperty('error');
    // An inherited name is not an input.
    expect(formatScoringPrompt('{constructor}', {})).toHaveProperty('error');
  });
});

describe("a judge's request and answer", () => {
  const model = readJudgeModel({
    llm_model_id: 'judge',
    default_params: { messages_template: [{ role: 'system', content: 'Grade.' }], temperature: 0, response_format: 'json', n_times: 3 },
  });

  it('sends the template, then the prompt as the user, with OpenAI names', () => {
    if ('error' in model) throw new Error(model.error);
    expect(judgeChatRequest(model, 'Grade this')).toEqual({
      model: 'judge',
      messages: [
        { role: 'system', content: 'Grade.' },
        { role: 'user', content: 'Grade this' },
      ],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
  });

  it('parses a JSON answer and says when it is not one', () => {
    const answer = (content: unknown) => ({ choices: [{ message: { content } }] });
    expect(judgeResult(answer('{"score": 4}'), 'json')).toEqual({ value: { score: 4 } });
    expect(judgeResult(answer('four'), 'json')).toHaveProperty('error');
    expect(judgeResult(answer('four'), 'text')).toEqual({ value: 'four' });
    expect(judgeResult(answer(null), 'text')).toHaveProperty('error');
  });

  it('reads only the objects it knows', () => {
    expect(readJudgeScorer({ _class_name: 'Scorer', scoring_prompt: 'x', model: 'm' })).toHaveProperty('error');
    expect(readJudgeScorer({ _bases: ['LLMAsAJudgeScorer'], scoring_prompt: 'x', model: 'weave:///a/b/object/m:1' })).toEqual({
      scoring_prompt: 'x',
      model: 'weave:///a/b/object/m:1',
    });
    expect(readJudgeModel({ llm_model_id: 'm', default_params: { response_format: 'xml' } })).toHaveProperty('error');
    expect(readMonitor({ _class_name: 'Monitor', sampling_rate: 2, scorers: [] })).toHaveProperty('error');
    expect(
      readMonitor({ _class_name: 'Monitor', sampling_rate: 0.1, scorers: ['r'], call_filter: { op_names: ['op'], query: null } }),
    ).toEqual({
      active: false,
      sampling_rate: 0.1,
      scorers: ['r'],
      op_names: ['op'],
      query: undefined,
    });
  });
});

describe("a monitor's sampling", () => {
  it('decides the same for the same call, and picks about the rate of all calls', () => {
    const ids = Array.from({ length: 4000 }, (_, i) => `call-${i}`);
    const picked = ids.filter((id) => sampledForMonitor('quality', id, 0.5));
    expect(picked.length / ids.length).toBeGreaterThan(0.46);
    expect(picked.length / ids.length).toBeLessThan(0.54);
    expect(ids.filter((id) => sampledForMonitor('quality', id, 0.5))).toEqual(picked);
    // Another monitor picks other calls.
    expect(ids.filter((id) => sampledForMonitor('tone', id, 0.5))).not.toEqual(picked);
    expect(ids.every((id) => sampledForMonitor('m', id, 1))).toBe(true);
    expect(ids.some((id) => sampledForMonitor('m', id, 0))).toBe(false);
  });
});
