// The demo's traces: a support agent answering questions, each root call with three children as
// Weave's SDK records them (a retrieval, a tool call, then an LLM call with chat messages in, a
// choice out and token usage); two fail on a rate limit, three threads hold two turns each.
// Deterministic (a seeded generator) but for the times, which end just before `now`.
import { digestBytes, seededRandom as random } from '@weft/core';
import type * as T from '@weft/types';

export const DEMO_TRACES = 12;
/** Traces 3 and 8: the LLM call hits a rate limit and the agent fails with it. */
export const FAILED_TRACES = [3, 8];

interface Scenario {
  question: string;
  docs: string[];
  tool: string;
  args: Record<string, unknown>;
  result: Record<string, unknown>;
  answer: string;
}

// The tool each question calls and the answer it leads to, so a trace reads as a conversation.
const SCENARIOS: Scenario[] = [
  {
    question: 'How do I reset my password?',
    docs: ['help/account.md', 'help/security.md'],
    tool: 'lookup_account',
    args: { email: 'sam@example.com' },
    result: { status: 'active', sso: false },
    answer: 'Open Settings → Security → Reset password; we email a link to sam@example.com.',
  },
  {
    question: 'Can I get a refund after 30 days?',
    docs: ['help/refunds.md', 'legal/terms.md'],
    tool: 'get_policy',
    args: { topic: 'refunds' },
    result: { window_days: 30, exceptions: ['defective items'] },
    answer: 'Refunds are possible within 30 days of delivery; after that, only for defective items.',
  },
  {
    question: 'Where is my order #4512?',
    docs: ['help/shipping.md'],
    tool: 'lookup_order',
    args: { order_id: '4512' },
    result: { status: 'shipped', carrier: 'UPS', eta_days: 2 },
    answer: 'Order #4512 has shipped with UPS and should arrive in 2 days.',
  },
  {
    question: 'How do I change my billing address?',
    docs: ['help/billing.md'],
    tool: 'lookup_account',
    args: { email: 'kim@example.com' },
    result: { status: 'active', plan: 'pro' },
    answer: 'Go to Billing → Payment details and edit the address; it applies from your next invoice.',
  },
  {
    question: 'Do you ship to Canada?',
    docs: ['help/shipping.md', 'help/customs.md'],
    tool: 'get_policy',
    args: { topic: 'shipping' },
    result: { countries: ['US', 'CA', 'MX'], days: '5-8' },
    answer: 'Yes, we ship to Canada; delivery takes 5 to 8 days, customs duties included.',
  },
  {
    question: 'My discount code does not work.',
    docs: ['help/promotions.md'],
    tool: 'check_discount',
    args: { code: 'SPRING10' },
    result: { valid: false, reason: 'expired' },
    answer: 'SPRING10 expired on March 31; SUMMER15 gives the same 10% off until August.',
  },
];
// A model of the router's catalogue, so the calls are priced (include_costs).
const MODEL = 'meta-llama/Llama-3.3-70B-Instruct';
const RATE_LIMIT = `RateLimitError: Error code: 429 - Rate limit reached for ${MODEL} (retry after 20 s)`;

export interface DemoCall {
  start: T.StartedCall;
  end: T.EndedCall;
}

// Fixed ids (UUIDv7-shaped), so a call's link is the same in every demo.
const id = (trace: number, n: number) => `0197331c-de00-7000-8000-${String(trace * 10 + n).padStart(12, '0')}`;

/** Every call of the demo's traces, parents before children; times end before `now`. */
export function demoTraces(projectId: string, now: number): DemoCall[] {
  const rnd = random(7);
  // An op ref as Weave's SDK writes it; the digest stands for the op's code (one per op name).
  const op = (name: string) => `weave:///${projectId}/op/${name}:${digestBytes(`demo op ${name}`)}`;
  const calls: DemoCall[] = [];
  for (let t = 0; t < DEMO_TRACES; t++) {
    const s = SCENARIOS[t % SCENARIOS.length]!;
    const failed = FAILED_TRACES.includes(t);
    // Spread over the last hour, five minutes apart.
    const t0 = now - (DEMO_TRACES - t) * 5 * 60_000;
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const root = id(t, 1);
    // Traces 0–1, 4–5 and 8–9 are two-turn conversations; every call of a turn carries its thread and turn.
    const thread = t % 4 < 2 ? { thread_id: `support-chat-${Math.floor(t / 4) + 1}`, turn_id: root } : { thread_id: null };
    const call = (n: number, name: string, from: number, to: number, io: Partial<T.StartedCall & T.EndedCall>): DemoCall => ({
      start: {
        project_id: projectId,
        id: id(t, n),
        trace_id: id(t, 0),
        parent_id: n === 1 ? null : root,
        op_name: op(name),
        started_at: at(from),
        ...thread,
        attributes: { weave: { client_version: '0.51.0', source: 'python-sdk' } },
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
    const retrieveEnd = 20 + Math.round(40 + rnd() * 160);
    const toolEnd = retrieveEnd + 10 + Math.round(30 + rnd() * 200);
    const llmStart = toolEnd + 10;
    const llmEnd = llmStart + (failed ? 150 : 600 + Math.round(rnd() * 1800));
    const [prompt, completion] = [140 + Math.round(rnd() * 200), 20 + Math.round(rnd() * 120)];
    const messages = [
      {
        role: 'system',
        content: `You are a support agent for an online shop. Answer briefly, from these facts: ${JSON.stringify(s.result)}`,
      },
      { role: 'user', content: s.question },
    ];
    const usage = { [MODEL]: { requests: 1, prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
    calls.push(
      call(1, 'run_agent', 0, llmEnd + 30, {
        inputs: { question: s.question },
        // The Weave SDKs sum their children's usage into a parent's summary when it ends.
        ...(failed ? { exception: RATE_LIMIT } : { output: { answer: s.answer }, summary: { usage } }),
      }),
      call(2, 'retrieve_docs', 20, retrieveEnd, { inputs: { query: s.question, k: 3 }, output: s.docs }),
      call(3, s.tool, retrieveEnd + 10, toolEnd, { inputs: s.args, output: s.result }),
      call(4, 'openai.chat.completions.create', llmStart, llmEnd, {
        inputs: { model: MODEL, messages, temperature: 0.2 },
        ...(failed
          ? { exception: RATE_LIMIT }
          : {
              output: {
                id: `chatcmpl-demo${t}`,
                object: 'chat.completion',
                model: MODEL,
                choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: s.answer } }],
                usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
              },
              // Usage as Weave's OpenAI integration sums it (OpenAI's names; the cost code reads input_/output_ too).
              summary: { usage },
            }),
      }),
    );
  }
  return calls;
}
