// What a judge sends and how its answer becomes a score, as Weave's LLMAsAJudgeScorer.score does:
// `scoring_prompt.format(output=output, **inputs)` as one user message after the model's
// messages_template; with response_format "json" the answer is parsed as JSON.
import { createHash } from 'node:crypto';
import type { JudgeModel } from './judge-objects.ts';

/**
 * Python's str.format with named fields only: `{name}` is replaced, `{{` and `}}` are braces.
 * Strings go in as they are, other values as JSON (Python would write its repr). A field the
 * values lack, or one with attribute access or a format spec, is an error naming it.
 */
export function formatScoringPrompt(template: string, values: Record<string, unknown>): string | { error: string } {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === '}') {
      if (template[i + 1] !== '}') return { error: "the scoring_prompt has a single '}'" };
      out += '}';
      i++;
      continue;
    }
    if (c !== '{') {
      out += c;
      continue;
    }
    if (template[i + 1] === '{') {
      out += '{';
      i++;
      continue;
    }
    const end = template.indexOf('}', i);
    if (end < 0) return { error: "the scoring_prompt has a '{' that is never closed" };
    const name = template.slice(i + 1, end);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return { error: `the scoring_prompt's field {${name}} is not a plain name` };
    if (!Object.hasOwn(values, name)) return { error: `the scoring_prompt names {${name}}, which the call's inputs and output lack` };
    const value = values[name];
    out += typeof value === 'string' ? value : JSON.stringify(value ?? null);
    i = end;
  }
  return out;
}

/** The chat completion a judge sends to the router. */
export function judgeChatRequest(model: JudgeModel, prompt: string): Record<string, unknown> {
  return {
    model: model.llm_model_id,
    messages: [...model.messages_template, { role: 'user', content: prompt }],
    ...model.params,
    ...(model.response_format === 'json' ? { response_format: { type: 'json_object' } } : {}),
  };
}

/** The judgement from the answer's first choice: parsed JSON when asked for, else the text. */
export function judgeResult(completion: unknown, format: JudgeModel['response_format']): { value: unknown } | { error: string } {
  const choice = (completion as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string') return { error: 'the judge answered no text' };
  if (format !== 'json') return { value: content };
  try {
    return { value: JSON.parse(content) as unknown };
  } catch {
    return { error: `the judge's answer is not JSON: ${content.slice(0, 200)}` };
  }
}

/**
 * Whether a monitor judges a call: the same answer for the same monitor and call every time, so a
 * restarted scan of calls it has seen decides as before, and about `rate` of all calls pass.
 */
export function sampledForMonitor(monitor: string, callId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const h = createHash('sha256').update(monitor).update('\u0000').update(callId).digest();
  return h.readUInt32BE(0) / 2 ** 32 < rate;
}
