// What the playground edits: a model, messages, parameters (as typed, so a half-typed number is
// not lost) and the project to record into; made from a traced LLM call's inputs ("Open in
// playground") and turned into the router's chat completion request.
import type { ChatCompletionReq } from '@weft/types';

export interface DraftMessage {
  role: string;
  /** The text, or with `json` the JSON of content parts (images, audio) kept as they were. */
  content: string;
  json?: boolean;
  /** The message's other fields (name, tool_calls, tool_call_id), sent back unchanged. */
  extra?: Record<string, unknown>;
}

export const PARAM_NAMES = ['temperature', 'max_tokens', 'top_p', 'stop', 'seed'] as const;
export type ParamName = (typeof PARAM_NAMES)[number];
/** Each parameter as typed; empty means "not sent". `stop`: one sequence per line. */
export type DraftParams = Record<ParamName, string>;

export interface Draft {
  model: string;
  messages: DraftMessage[];
  params: DraftParams;
  /** `entity/project` sent as OpenAI-Project; empty: the router's default project. */
  project: string;
  /** Fields of the traced call the playground does not edit (tools, response_format…), named so nothing is dropped silently. */
  notCarried: string[];
}

export const emptyParams = (): DraftParams => ({ temperature: '', max_tokens: '', top_p: '', stop: '', seed: '' });

export const newDraft = (model = ''): Draft => ({
  model,
  messages: [
    { role: 'system', content: '' },
    { role: 'user', content: '' },
  ],
  params: emptyParams(),
  project: '',
  notCarried: [],
});

type Inputs = Record<string, unknown>;

/** A call the playground can replay: its inputs have a `model` and chat `messages`. */
export function isLlmInputs(inputs: unknown): inputs is Inputs & { model: string; messages: unknown[] } {
  if (typeof inputs !== 'object' || inputs === null) return false;
  const i = inputs as Inputs;
  return typeof i.model === 'string' && Array.isArray(i.messages) && i.messages.length > 0 && i.messages.every(isMessageLike);
}

const isMessageLike = (m: unknown) => typeof m === 'object' && m !== null && typeof (m as { role?: unknown }).role === 'string';

// Read by the playground itself (streaming is always on) or an SDK's own bookkeeping (`self`).
const HANDLED = new Set(['model', 'messages', 'stream', 'stream_options', 'self', 'max_completion_tokens', ...PARAM_NAMES]);

/** The draft a traced LLM call's inputs make, recorded into `project`. */
export function draftFromInputs(inputs: unknown, project: string): Draft | undefined {
  if (!isLlmInputs(inputs)) return undefined;
  const params = emptyParams();
  const text = (v: unknown) => (typeof v === 'number' ? String(v) : '');
  params.temperature = text(inputs.temperature);
  params.top_p = text(inputs.top_p);
  params.max_tokens = text(inputs.max_tokens ?? inputs.max_completion_tokens);
  params.seed = text(inputs.seed);
  params.stop = typeof inputs.stop === 'string' ? inputs.stop : Array.isArray(inputs.stop) ? inputs.stop.join('\n') : '';
  return {
    model: inputs.model,
    messages: inputs.messages.map((m) => draftMessageOf(m as Record<string, unknown>)),
    params,
    project,
    notCarried: Object.keys(inputs).filter((k) => !HANDLED.has(k) && inputs[k] !== null && inputs[k] !== undefined),
  };
}

function draftMessageOf(m: Record<string, unknown>): DraftMessage {
  const { role, content, ...extra } = m;
  const rest = Object.keys(extra).length > 0 ? { extra } : {};
  if (typeof content === 'string') return { role: role as string, content, ...rest };
  if (content === null || content === undefined) return { role: role as string, content: '', ...rest };
  return { role: role as string, content: JSON.stringify(content, null, 2), json: true, ...rest };
}

export type Problems = Partial<Record<ParamName | 'model' | 'messages' | 'project', string>>;

const PROJECT_ID = /^[^/\s]+\/[^/\s]+$/;

/** The request the draft makes (always streamed, with usage), or what is wrong with it. */
export function requestOf(draft: Draft): { body: ChatCompletionReq; problems?: undefined } | { body?: undefined; problems: Problems } {
  const problems: Problems = {};
  if (!draft.model) problems.model = 'Pick a model.';
  if (draft.project.trim() && !PROJECT_ID.test(draft.project.trim())) problems.project = 'A project is written entity/project.';
  const messages: ChatCompletionReq['messages'] = [];
  for (const [i, m] of draft.messages.entries()) {
    let content: unknown = m.content;
    if (m.json) {
      try {
        content = JSON.parse(m.content);
      } catch {
        problems.messages = `Message ${i + 1}: its content parts are not valid JSON.`;
      }
    }
    // An empty system prompt is a field left blank, not a message to send.
    if (m.role === 'system' && !m.json && !m.content.trim() && !m.extra) continue;
    messages.push({ ...m.extra, role: m.role as ChatCompletionReq['messages'][number]['role'], content: content as string });
  }
  const said = (m: (typeof messages)[number]) =>
    (typeof m.content === 'string' ? m.content.trim() !== '' : true) || m.tool_calls !== undefined;
  if (!messages.some(said)) problems.messages ??= 'Write a message.';
  const p = draft.params;
  const body: ChatCompletionReq = { model: draft.model, messages, stream: true, stream_options: { include_usage: true } };
  const num = (name: ParamName, min: number, max: number, integer: boolean) => {
    const raw = p[name].trim();
    if (!raw) return undefined;
    const v = Number(raw);
    if (!Number.isFinite(v) || (integer && !Number.isInteger(v)) || v < min || v > max) {
      problems[name] = `${integer ? 'A whole number' : 'A number'}${max === Infinity ? ` of at least ${min}` : ` from ${min} to ${max}`}.`;
      return undefined;
    }
    return v;
  };
  const temperature = num('temperature', 0, 2, false);
  const top_p = num('top_p', 0, 1, false);
  const max_tokens = num('max_tokens', 1, Infinity, true);
  const seed = num('seed', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, true);
  if (temperature !== undefined) body.temperature = temperature;
  if (top_p !== undefined) body.top_p = top_p;
  if (max_tokens !== undefined) body.max_tokens = max_tokens;
  if (seed !== undefined) body.seed = seed;
  const stop = p.stop.split('\n').filter((s) => s !== '');
  if (stop.length > 4) problems.stop = 'At most 4 stop sequences (one per line).';
  else if (stop.length > 0) body.stop = stop;
  return Object.keys(problems).length > 0 ? { problems } : { body };
}
