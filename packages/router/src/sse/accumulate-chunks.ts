// Accumulates streamed chunks into one ChatCompletion for the record: every choice (n > 1), its
// content, refusal and reasoning text, its tool calls merged by their `index` (parallel calls
// interleave), its logprobs concatenated, its finish reason; and the usage chunk.
import type { ChatCompletion, ChatCompletionChunk, Usage } from '../types.ts';

interface ToolCallAcc {
  id?: string;
  type?: string;
  name: string;
  arguments: string;
}

interface ChoiceAcc {
  role: string;
  content: string | null;
  refusal: string | null;
  /** Reasoning text some providers stream (`reasoning` or `reasoning_content`), kept under its own name. */
  reasoning: Map<string, string>;
  tool_calls: Map<number, ToolCallAcc>;
  logprobs: { content: unknown[] | null; refusal: unknown[] | null } | null;
  finish_reason: string | null;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class ChunkAccumulator {
  private readonly choices = new Map<number, ChoiceAcc>();
  private head: { id: string; created: number; system_fingerprint?: string | null; service_tier?: unknown } | undefined;
  usage: Usage | undefined;

  add(chunk: ChatCompletionChunk): void {
    this.head ??= {
      id: chunk.id,
      created: chunk.created,
      ...(chunk.system_fingerprint === undefined ? {} : { system_fingerprint: chunk.system_fingerprint as string | null }),
      ...(chunk.service_tier === undefined ? {} : { service_tier: chunk.service_tier }),
    };
    if (isObject(chunk.usage)) this.usage = chunk.usage;
    for (const c of Array.isArray(chunk.choices) ? chunk.choices : []) this.addChoice(c);
  }

  /** True when at least one choice was seen and every choice seen has a finish reason. */
  finished(): boolean {
    if (this.choices.size === 0) return false;
    for (const c of this.choices.values()) if (c.finish_reason === null) return false;
    return true;
  }

  /** The answer so far, with `model` and `provider` as the router reports them. */
  completion(model: string, provider: string): ChatCompletion {
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => {
        const tool_calls = [...c.tool_calls.entries()]
          .sort(([a], [b]) => a - b)
          .map(([, t]) => ({ id: t.id ?? '', type: t.type ?? 'function', function: { name: t.name, arguments: t.arguments } }));
        return {
          index,
          message: {
            role: c.role,
            content: c.content,
            refusal: c.refusal,
            ...Object.fromEntries(c.reasoning),
            ...(tool_calls.length > 0 ? { tool_calls } : {}),
          },
          logprobs: c.logprobs,
          finish_reason: c.finish_reason,
        };
      });
    return {
      id: this.head?.id ?? '',
      object: 'chat.completion',
      created: this.head?.created ?? 0,
      model,
      provider,
      ...(this.head?.system_fingerprint === undefined ? {} : { system_fingerprint: this.head.system_fingerprint }),
      ...(this.head?.service_tier === undefined ? {} : { service_tier: this.head.service_tier }),
      choices,
      ...(this.usage === undefined ? {} : { usage: this.usage }),
    };
  }

  private addChoice(choice: ChatCompletionChunk['choices'][number]): void {
    if (!isObject(choice) || typeof choice.index !== 'number') return;
    let acc = this.choices.get(choice.index);
    if (acc === undefined) {
      acc = {
        role: 'assistant',
        content: null,
        refusal: null,
        reasoning: new Map(),
        tool_calls: new Map(),
        logprobs: null,
        finish_reason: null,
      };
      this.choices.set(choice.index, acc);
    }
    const delta = isObject(choice.delta) ? choice.delta : {};
    const role = str(delta.role);
    if (role !== undefined) acc.role = role;
    const content = str(delta.content);
    if (content !== undefined) acc.content = (acc.content ?? '') + content;
    const refusal = str(delta.refusal);
    if (refusal !== undefined) acc.refusal = (acc.refusal ?? '') + refusal;
    for (const key of ['reasoning', 'reasoning_content']) {
      const text = str(delta[key]);
      if (text !== undefined) acc.reasoning.set(key, (acc.reasoning.get(key) ?? '') + text);
    }
    if (Array.isArray(delta.tool_calls)) for (const t of delta.tool_calls) addToolCall(acc, t);
    if (isObject(choice.logprobs)) addLogprobs(acc, choice.logprobs);
    if (typeof choice.finish_reason === 'string') acc.finish_reason = choice.finish_reason;
  }
}

function addToolCall(acc: ChoiceAcc, delta: unknown): void {
  if (!isObject(delta)) return;
  // A provider that streams one call without `index` means the position of the call it opened last.
  const index = typeof delta.index === 'number' ? delta.index : Math.max(0, acc.tool_calls.size - (str(delta.id) ? 0 : 1));
  let call = acc.tool_calls.get(index);
  if (call === undefined) {
    call = { name: '', arguments: '' };
    acc.tool_calls.set(index, call);
  }
  const id = str(delta.id);
  if (id !== undefined && id !== '') call.id = id;
  const type = str(delta.type);
  if (type !== undefined) call.type = type;
  const fn = isObject(delta.function) ? delta.function : {};
  const name = str(fn.name);
  // Some providers repeat the name on every delta; the name is whole in its first delta.
  if (name !== undefined && call.name === '') call.name = name;
  const args = str(fn.arguments);
  if (args !== undefined) call.arguments += args;
}

function addLogprobs(acc: ChoiceAcc, logprobs: Record<string, unknown>): void {
  acc.logprobs ??= { content: null, refusal: null };
  for (const key of ['content', 'refusal'] as const) {
    const items = logprobs[key];
    if (Array.isArray(items)) acc.logprobs[key] = [...(acc.logprobs[key] ?? []), ...(items as unknown[])];
  }
}
