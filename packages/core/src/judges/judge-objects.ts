// Weave's objects for LLM-as-judge, read from a stored object's val: the LLMAsAJudgeScorer
// (weave/scorers/llm_as_a_judge_scorer.py), the LLMStructuredCompletionModel it names, and the
// Monitor (weave/flow/monitor.py) that runs scorers on new calls. Each reader answers the object
// or the reason it is not one, so the API can refuse a bad ref and a judge can record why it gave up.

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Is `val` an instance of Weave class `name` (its own class or a base)? */
export function isWeaveClass(val: unknown, name: string): boolean {
  if (!isDict(val)) return false;
  if (val._class_name === name || val._type === name) return true;
  return Array.isArray(val._bases) && val._bases.includes(name);
}

export interface JudgeScorer {
  /** The model: an LLMStructuredCompletionModel value, or a ref to one. */
  model: Dict | string;
  scoring_prompt: string;
}

export function readJudgeScorer(val: unknown): JudgeScorer | { error: string } {
  if (!isWeaveClass(val, 'LLMAsAJudgeScorer')) return { error: 'is not an LLMAsAJudgeScorer object' };
  const v = val as Dict;
  if (typeof v.scoring_prompt !== 'string' || v.scoring_prompt === '') return { error: 'has no scoring_prompt' };
  if (!(typeof v.model === 'string' || isDict(v.model))) return { error: 'has no model' };
  return { model: v.model, scoring_prompt: v.scoring_prompt };
}

export interface JudgeMessage {
  role: string;
  content: string;
}

export interface JudgeModel {
  /** The router model the judge asks. */
  llm_model_id: string;
  messages_template: JudgeMessage[];
  /** Sampling parameters sent as they are (OpenAI's names). */
  params: Dict;
  response_format: 'json' | 'text' | undefined;
}

// LLMStructuredCompletionModel's default_params that are OpenAI chat parameters of the same name.
const PASSED = ['temperature', 'top_p', 'max_tokens', 'presence_penalty', 'frequency_penalty', 'stop'] as const;

export function readJudgeModel(val: unknown): JudgeModel | { error: string } {
  if (!isDict(val)) return { error: 'the model is not an object' };
  if (typeof val.llm_model_id !== 'string' || val.llm_model_id === '') return { error: 'the model has no llm_model_id' };
  const defaults = isDict(val.default_params) ? val.default_params : {};
  const template = defaults.messages_template ?? [];
  if (!Array.isArray(template)) return { error: 'messages_template is not a list' };
  const messages: JudgeMessage[] = [];
  for (const m of template) {
    if (!isDict(m) || typeof m.role !== 'string' || typeof m.content !== 'string') {
      return { error: 'a messages_template entry lacks a text role or content' };
    }
    messages.push({ role: m.role, content: m.content });
  }
  const params: Dict = {};
  for (const key of PASSED) if (defaults[key] != null) params[key] = defaults[key];
  const format = defaults.response_format;
  if (format != null && format !== 'json' && format !== 'text')
    return { error: `response_format ${JSON.stringify(format)} is neither json nor text` };
  return { llm_model_id: val.llm_model_id, messages_template: messages, params, response_format: format ?? undefined };
}

export interface Monitor {
  active: boolean;
  sampling_rate: number;
  scorers: string[];
  op_names: string[];
  /** Weave's query (`{$expr: …}`), or undefined for every call of the ops. */
  query: Dict | undefined;
}

export function readMonitor(val: unknown): Monitor | { error: string } {
  if (!isWeaveClass(val, 'Monitor')) return { error: 'is not a Monitor object' };
  const v = val as Dict;
  const rate = v.sampling_rate;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) return { error: 'sampling_rate is not a number from 0 to 1' };
  if (!Array.isArray(v.scorers) || !v.scorers.every((s) => typeof s === 'string')) return { error: 'scorers is not a list of refs' };
  const filter = isDict(v.call_filter) ? v.call_filter : {};
  const ops = filter.op_names ?? [];
  if (!Array.isArray(ops) || !ops.every((o) => typeof o === 'string')) return { error: 'call_filter.op_names is not a list of op names' };
  const query = filter.query;
  if (query != null && !isDict(query)) return { error: 'call_filter.query is not a query' };
  return {
    active: v.active === true,
    sampling_rate: rate,
    scorers: v.scorers,
    op_names: ops,
    query: query ?? undefined,
  };
}
