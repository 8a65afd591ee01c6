// The streamed answer of a chat completion, accumulated from its server-sent events' `data:`
// payloads: each choice's text, reasoning and tool calls (arguments arrive in pieces, keyed by the
// tool call's index), the finish reason, the usage chunk, the model and provider that served it,
// and an error event (`{"error": …}` after the first event). Pure, so the page re-renders from a
// new value per event and the logic is tested without a browser.
import type { ChatCompletionChunk, OpenAiError, Usage } from '@weft/types';

export interface StreamedToolCall {
  id?: string;
  type?: string;
  function: { name: string; arguments: string };
}

export interface StreamedChoice {
  index: number;
  role: string;
  content: string;
  reasoning: string;
  refusal: string;
  tool_calls: StreamedToolCall[];
  finish_reason: string | null;
}

export type OpenAiErrorDetail = OpenAiError['error'];

export interface StreamState {
  choices: StreamedChoice[];
  id?: string;
  model?: string;
  provider?: string;
  usage?: Usage;
  error?: OpenAiErrorDetail;
  /** `data: [DONE]` arrived: the answer is complete. */
  done: boolean;
  /** Some text, reasoning or tool call has arrived (the time to first token is taken then). */
  hasOutput: boolean;
}

export const emptyStream = (): StreamState => ({ choices: [], done: false, hasOutput: false });

interface DeltaToolCall {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

interface Delta {
  role?: string;
  content?: string | null;
  refusal?: string | null;
  reasoning?: string | null;
  reasoning_content?: string | null;
  tool_calls?: DeltaToolCall[];
}

/** A payload that is not a chunk, an error or `[DONE]`: the stream cannot be trusted past it. */
export class StreamProtocolError extends Error {}

/** The state after one event's `data`. */
export function applyEvent(state: StreamState, data: string): StreamState {
  if (data.trim() === '[DONE]') return { ...state, done: true };
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    throw new StreamProtocolError(`The stream sent an event that is not JSON: ${data.slice(0, 200)}`);
  }
  if (typeof payload !== 'object' || payload === null) throw new StreamProtocolError(`Unexpected event: ${data.slice(0, 200)}`);
  if ('error' in payload) return { ...state, error: errorDetailOf(payload) };
  return applyChunk(state, payload as ChatCompletionChunk);
}

function applyChunk(state: StreamState, chunk: ChatCompletionChunk): StreamState {
  const choices = [...state.choices];
  let hasOutput = state.hasOutput;
  for (const c of chunk.choices ?? []) {
    const at = choices.findIndex((x) => x.index === c.index);
    const before = at >= 0 ? choices[at]! : newChoice(c.index);
    const delta = (c.delta ?? {}) as Delta;
    const reasoning = delta.reasoning ?? delta.reasoning_content ?? '';
    const next: StreamedChoice = {
      ...before,
      role: delta.role ?? before.role,
      content: before.content + (delta.content ?? ''),
      reasoning: before.reasoning + reasoning,
      refusal: before.refusal + (delta.refusal ?? ''),
      tool_calls: delta.tool_calls ? mergeToolCalls(before.tool_calls, delta.tool_calls) : before.tool_calls,
      finish_reason: c.finish_reason ?? before.finish_reason,
    };
    if (delta.content || reasoning || delta.refusal || delta.tool_calls?.length) hasOutput = true;
    if (at >= 0) choices[at] = next;
    else choices.push(next);
  }
  choices.sort((a, b) => a.index - b.index);
  return {
    ...state,
    choices,
    hasOutput,
    id: state.id ?? chunk.id,
    model: chunk.model ?? state.model,
    provider: chunk.provider ?? state.provider,
    usage: chunk.usage ?? state.usage,
  };
}

const newChoice = (index: number): StreamedChoice => ({
  index,
  role: 'assistant',
  content: '',
  reasoning: '',
  refusal: '',
  tool_calls: [],
  finish_reason: null,
});

// A tool call's first delta names it (id, type, function name); later ones append to its arguments.
function mergeToolCalls(before: StreamedToolCall[], deltas: DeltaToolCall[]): StreamedToolCall[] {
  const calls = before.map((t) => ({ ...t, function: { ...t.function } }));
  for (const d of deltas) {
    const i = d.index ?? calls.length;
    const call = (calls[i] ??= { function: { name: '', arguments: '' } });
    if (d.id) call.id = d.id;
    if (d.type) call.type = d.type;
    call.function.name += d.function?.name ?? '';
    call.function.arguments += d.function?.arguments ?? '';
  }
  return calls;
}

/**
 * An error body read as OpenAI's `{error: {message, type, param, code}}`; Weft's own
 * `{reason, error_type}` and anything else are turned into that shape so one view shows them all.
 */
export function errorDetailOf(body: unknown, status?: number): OpenAiErrorDetail {
  const fallback = status === undefined ? 'The request failed' : `The server answered ${status}`;
  if (typeof body === 'string') return { message: body.trim() || fallback, type: 'error', param: null, code: null };
  if (typeof body !== 'object' || body === null) return { message: fallback, type: 'error', param: null, code: null };
  const b = body as { error?: unknown; reason?: unknown; error_type?: unknown };
  if (typeof b.error === 'object' && b.error !== null) {
    const e = b.error as Partial<OpenAiErrorDetail>;
    return {
      message: typeof e.message === 'string' ? e.message : fallback,
      type: typeof e.type === 'string' ? e.type : 'error',
      param: e.param ?? null,
      code: e.code ?? null,
      ...(e.metadata ? { metadata: e.metadata } : {}),
    };
  }
  if (typeof b.reason === 'string')
    return { message: b.reason, type: typeof b.error_type === 'string' ? b.error_type : 'error', param: null, code: null };
  return { message: fallback, type: 'error', param: null, code: null };
}
