// The calls of scenario 11: traces as the Weave Python SDK writes them (op refs for op names,
// roots with nested children, UUIDv7 ids, small inputs/outputs, usage summed into the root), one
// project of 1,000,000 calls and one of 10,000 over the same 30 days. Deterministic: a call is
// a function of its project and its position, so a reused seed can be checked against it.
import { digestOfValue, seededRandom } from '@weft/core';
import type * as T from '@weft/types';
import { ENTITY } from '../servers/weft.ts';

export const CALL_PROJECTS = { large: `${ENTITY}/calls-large`, small: `${ENTITY}/calls-small` } as const;
export type CallProject = keyof typeof CALL_PROJECTS;
const SALT: Record<CallProject, number> = { large: 11, small: 12 };

/** The seed's calls start within these 30 days. */
export const SPAN_START_MS = Date.UTC(2025, 4, 1);
export const SPAN_MS = 30 * 24 * 3600 * 1000;

// ~20 ops as a traced app has them: a few entry points, and what they call. Weights are shares.
const ROOT_OPS: Array<[string, number]> = [
  ['answer_question', 35],
  ['run_agent', 25],
  ['summarize_document', 20],
  ['classify_ticket', 12],
  ['evaluate_example', 8],
];
const CHILD_OPS: Array<[string, number]> = [
  ['openai.chat.completions.create', 30],
  ['retrieve_documents', 12],
  ['embed_query', 10],
  ['anthropic.Messages.create', 8],
  ['rerank', 6],
  ['call_tool', 6],
  ['format_prompt', 5],
  ['parse_output', 5],
  ['search_web', 4],
  ['validate_json', 3],
  ['score_relevance', 3],
  ['score_correctness', 3],
  ['load_context', 2],
  ['cache_lookup', 2],
  ['post_process', 1],
];
const LLM_MODEL: Record<string, string> = {
  'openai.chat.completions.create': 'gpt-4o-mini',
  'anthropic.Messages.create': 'claude-3-5-haiku',
};
export const OP_NAMES = [...ROOT_OPS, ...CHILD_OPS].map(([name]) => name);

/** An op's ref as the SDK sends it for op_name: `weave:///<entity>/<project>/op/<name>:<digest>`. */
export function opRef(project: CallProject, name: string): string {
  return `weave:///${CALL_PROJECTS[project]}/op/${name}:${digestOfValue({ op: name, source: `def ${name}(...): ...` })}`;
}

const ATTRIBUTES = {
  weave: {
    client_version: '0.51.56',
    source: 'python-sdk',
    sys_version: '3.12.4',
    os_name: 'Linux',
    os_version: '#1 SMP',
    os_release: '6.8.0',
  },
};

/** A call as the SDK's call/upsert_batch carries it: its start and its end. */
export interface GeneratedCall {
  start: T.StartedCall;
  end: T.EndedCall;
}

type Usage = Record<string, { requests: number; prompt_tokens: number; completion_tokens: number; total_tokens: number }>;

/** Every call of a project, in the order a client sends them (trace by trace, in time order). */
export function* generateCalls(project: CallProject, count: number): Generator<GeneratedCall> {
  const rand = seededRandom(SALT[project]);
  const refs = new Map(OP_NAMES.map((n) => [n, opRef(project, n)]));
  const projectId = CALL_PROJECTS[project];
  let index = 0;
  while (index < count) {
    // A trace: its root, then 0–7 children, nested under the root or an earlier child.
    const size = Math.min(count - index, 1 + Math.floor(rand() * 8));
    const traceStart = SPAN_START_MS + Math.floor(((index + rand()) / count) * SPAN_MS);
    const ids = Array.from({ length: size }, (_, k) => uuidv7Like(traceStart + k, SALT[project], index + k));
    const ops = [pick(ROOT_OPS, rand()), ...Array.from({ length: size - 1 }, () => pick(CHILD_OPS, rand()))];
    const parents = ids.map((_, k) => (k === 0 ? null : rand() < 0.7 || k === 1 ? 0 : 1 + Math.floor(rand() * (k - 1))));
    // Children run one after another inside the root.
    const starts: number[] = [traceStart];
    const ends: number[] = [];
    let clock = traceStart + 3;
    for (let k = 1; k < size; k++) {
      starts.push(clock);
      clock += 20 + Math.floor(rand() * 1500);
      ends.push(clock);
      clock += 2;
    }
    ends.unshift(clock + 5);
    const usages: Array<Usage | undefined> = ops.map((op) => {
      const model = LLM_MODEL[op];
      if (!model) return undefined;
      const prompt = 200 + Math.floor(rand() * 2000);
      const completion = 10 + Math.floor(rand() * 400);
      return { [model]: { requests: 1, prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
    });
    // The SDK sums its children's usage into a parent's summary.
    usages[0] = sumUsage(usages.slice(1));
    for (let k = 0; k < size; k++) {
      const n = index + k;
      const op = ops[k] as string;
      const failed = rand() < 0.02;
      yield {
        start: {
          project_id: projectId,
          id: ids[k],
          op_name: refs.get(op) as string,
          display_name: null,
          trace_id: ids[0],
          parent_id: parents[k] === null ? null : ids[parents[k] as number],
          thread_id: null,
          turn_id: null,
          started_at: sdkDatetime(starts[k] as number, n),
          attributes: ATTRIBUTES,
          inputs: inputsOf(op, n),
        },
        end: {
          project_id: projectId,
          id: ids[k] as string,
          ended_at: sdkDatetime(ends[k] as number, n + 1),
          exception: failed ? exceptionOf(op) : null,
          output: failed ? null : outputOf(op, n),
          summary: usages[k] ? { usage: usages[k] } : {},
          svc_run_step_end: null,
        },
      };
    }
    index += size;
  }
}

function inputsOf(op: string, n: number): Record<string, unknown> {
  if (LLM_MODEL[op]) {
    return {
      model: LLM_MODEL[op],
      messages: [{ role: 'user', content: `Answer briefly: which invoice covers order #${n % 9973}?` }],
      temperature: (n % 5) / 10,
    };
  }
  if (op.startsWith('retrieve') || op === 'embed_query' || op === 'search_web') return { query: `invoice for order #${n % 9973}`, k: 5 };
  return { text: `Customer ${n % 997} asks about order #${n % 9973}.`, n: n % 100 };
}

function outputOf(op: string, n: number): unknown {
  if (LLM_MODEL[op]) return { choices: [{ message: { role: 'assistant', content: `Invoice INV-${n % 7919}.` }, finish_reason: 'stop' }] };
  if (op.startsWith('retrieve') || op === 'rerank') return { documents: [`doc-${n % 101}`, `doc-${n % 103}`], scores: [0.91, 0.77] };
  if (op.startsWith('score')) return { score: (n % 11) / 10, passed: n % 3 !== 0 };
  return { result: `ok ${n % 1000}` };
}

function exceptionOf(op: string): string {
  return JSON.stringify({
    type: 'TimeoutError',
    message: `${op} timed out after 30s`,
    traceback: [{ filename: 'app.py', line_number: 42, function_name: op, text: `return ${op}(...)` }],
  });
}

function sumUsage(parts: Array<Usage | undefined>): Usage | undefined {
  const total: Usage = {};
  for (const usage of parts) {
    for (const [model, u] of Object.entries(usage ?? {})) {
      const t = (total[model] ??= { requests: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
      t.requests += u.requests;
      t.prompt_tokens += u.prompt_tokens;
      t.completion_tokens += u.completion_tokens;
      t.total_tokens += u.total_tokens;
    }
  }
  return Object.keys(total).length > 0 ? total : undefined;
}

/** Python's isoformat with microseconds and `Z`, as the SDK sends datetimes. */
function sdkDatetime(ms: number, n: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}${String(n % 1000).padStart(3, '0')}Z`;
}

/** A UUIDv7 (time-ordered, as the SDK makes call and trace ids), unique by position. */
function uuidv7Like(ms: number, salt: number, n: number): string {
  const t = ms.toString(16).padStart(12, '0');
  const s = salt.toString(16).padStart(3, '0');
  return `${t.slice(0, 8)}-${t.slice(8)}-7${s}-8${(n >>> 24).toString(16).padStart(3, '0')}-${(n & 0xffffff).toString(16).padStart(12, '0')}`;
}

function pick(weighted: ReadonlyArray<[string, number]>, u: number): string {
  const total = weighted.reduce((s, [, w]) => s + w, 0);
  let x = u * total;
  for (const [name, w] of weighted) if ((x -= w) < 0) return name;
  return weighted[weighted.length - 1]![0];
}
