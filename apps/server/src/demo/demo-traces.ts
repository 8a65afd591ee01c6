// The demo's traces: a support agent answering questions, each root call with a retrieval, an
// LLM call (chat messages in, a choice out, token usage) and a tool call; two fail on a rate
// limit, some share a thread. Deterministic (a seeded generator), so two demos write the same data.
import type * as T from '@weft/types';

/** A small deterministic generator (mulberry32): the same seed, the same demo. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const DEMO_TRACES = 12;
const QUESTIONS = [
  'How do I reset my password?',
  'Can I get a refund after 30 days?',
  'Where is my order #4512?',
  'How do I change my billing address?',
  'Do you ship to Canada?',
  'My discount code does not work.',
];
const MODEL = 'gpt-4o-mini';
const OP_DIGEST = 'Yz6f0ZI7cwVvXCzNXbLNXrSW0CCw5C8HJRg0yFbXm0w';

export interface DemoCall {
  start: T.StartedCall;
  end: T.EndedCall;
}

const id = (trace: number, n: number) => `0197331c-de00-7000-8000-${String(trace * 10 + n).padStart(12, '0')}`;

/** Every call of the demo's traces, parents before children; times end before `now`. */
export function demoTraces(projectId: string, now: number): DemoCall[] {
  const rnd = random(7);
  const op = (name: string) => `weave:///${projectId}/op/${name}:${OP_DIGEST}`;
  const calls: DemoCall[] = [];
  for (let t = 0; t < DEMO_TRACES; t++) {
    const question = QUESTIONS[t % QUESTIONS.length]!;
    const failed = t === 3 || t === 8;
    const t0 = now - (DEMO_TRACES - t) * 5 * 60_000;
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const llmMs = 600 + Math.round(rnd() * 1800);
    const [prompt, completion] = [90 + Math.round(rnd() * 200), failed ? 0 : 20 + Math.round(rnd() * 120)];
    const root = id(t, 1);
    const call = (
      n: number,
      name: string,
      parent: string | null,
      from: number,
      to: number,
      io: Partial<T.StartedCall & T.EndedCall>,
    ): DemoCall => ({
      start: {
        project_id: projectId,
        id: id(t, n),
        trace_id: id(t, 0),
        parent_id: parent,
        op_name: op(name),
        started_at: at(from),
        thread_id: t % 3 === 0 ? `thread-${t / 3}` : null,
        attributes: {},
        inputs: io.inputs ?? {},
      },
      end: {
        project_id: projectId,
        id: id(t, n),
        ended_at: at(to),
        output: io.output ?? null,
        exception: io.exception ?? null,
        summary: io.summary ?? {},
      },
    });
    const messages = [
      { role: 'system', content: 'You are a support agent for an online shop. Answer briefly.' },
      { role: 'user', content: question },
    ];
    const rateLimit = 'RateLimitError: 429 Too Many Requests (retry after 20 s)';
    const end = 250 + llmMs + 180;
    calls.push(
      call(1, 'run_agent', null, 0, end, {
        inputs: { question },
        ...(failed ? { exception: rateLimit } : { output: { answer: `Here is how: … (${question})` } }),
      }),
      call(2, 'retrieve_docs', root, 20, 220, {
        inputs: { query: question, k: 3 },
        output: ['help/account.md', 'help/billing.md', 'help/shipping.md'],
      }),
      call(3, 'openai.chat.completions.create', root, 240, 240 + llmMs, {
        inputs: { model: MODEL, messages, temperature: 0.2 },
        ...(failed
          ? { exception: rateLimit }
          : {
              output: {
                choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `Here is how: … (${question})` } }],
              },
            }),
        summary: {
          usage: { [MODEL]: { requests: 1, prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } },
        },
      }),
    );
    if (!failed) calls.push(call(4, 'lookup_order', id(t, 3), 300, 420, { inputs: { order: `#45${t}` }, output: { status: 'shipped' } }));
  }
  return calls;
}
