// What kind of step a call is (an LLM call, a tool, an agent, a retriever, an evaluation), for the
// trace tree's icons. Weave has no single field for it, so the rule reads what the clients record,
// most explicit first:
// 1. a kind the client declared: `attributes.weave.kind`, `attributes["weave.kind"]`, or
//    `attributes.kind` (where OTel ingest puts weave.span.kind / traceloop.span.kind /
//    openinference.span.kind);
// 2. OTel's GenAI operation (`attributes.operation`, from gen_ai.operation.name);
// 3. Weave's evaluation ops (`Evaluation.evaluate`, `predict_and_score`, `summarize`, a scorer's
//    `.score`) and its evaluation markers (`attributes._weave_eval_meta`, `attributes.weave.score`);
// 4. token usage in the summary (only model calls record it), or a provider's chat/completion op
//    (a failed LLM call records no usage);
// 5. the op's name (`run_agent`, `retrieve_docs`, `search_tool`), the weakest hint;
// else a plain op.
import type { CallSchema } from '@weft/types';
import { opLabel } from './call-facts.ts';

export type CallKind = 'llm' | 'tool' | 'agent' | 'retriever' | 'evaluation' | 'op';

export const KIND_LABELS: Record<CallKind, string> = {
  llm: 'LLM call',
  tool: 'Tool',
  agent: 'Agent',
  retriever: 'Retriever',
  evaluation: 'Evaluation',
  op: 'Op',
};

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined);

/** A declared kind in any of the conventions' spellings; undefined for one we do not draw. */
function declaredKind(kind: string): CallKind | undefined {
  if (/^(llm|chat|completion|embedding|model|generation)$/.test(kind)) return 'llm';
  if (/^(tool|function|execute_tool)$/.test(kind)) return 'tool';
  if (/^(agent|invoke_agent|create_agent)$/.test(kind)) return 'agent';
  if (/^(retriever|retrieval|search|reranker|vectorstore)$/.test(kind)) return 'retriever';
  if (/^(evaluator|evaluation|scorer|score|guardrail)$/.test(kind)) return 'evaluation';
  return undefined;
}

const OPERATIONS: Record<string, CallKind> = {
  chat: 'llm',
  text_completion: 'llm',
  generate_content: 'llm',
  embeddings: 'llm',
  execute_tool: 'tool',
  invoke_agent: 'agent',
  create_agent: 'agent',
};

/** The op's name without Weave's ref wrapping (`weave:///e/p/op/name:digest` → `name`). */
function opName(call: Pick<CallSchema, 'op_name'>): string {
  return opLabel({ op_name: call.op_name });
}

export function callKind(call: Pick<CallSchema, 'op_name' | 'display_name' | 'attributes' | 'summary' | 'inputs'>): CallKind {
  const attributes = obj(call.attributes);
  const weave = obj(attributes.weave);
  for (const declared of [weave.kind, attributes['weave.kind'], attributes.kind]) {
    const kind = str(declared);
    const known = kind === undefined ? undefined : declaredKind(kind);
    if (known) return known;
  }
  const operation = str(attributes.operation);
  if (operation && OPERATIONS[operation]) return OPERATIONS[operation];

  const name = opName(call);
  if (/^Evaluation\.(evaluate|predict_and_score|predictAndScore|summarize)$/.test(name) || /\.score$/.test(name)) return 'evaluation';
  if (attributes._weave_eval_meta !== undefined || weave.score !== undefined) return 'evaluation';

  if (Object.keys(obj(obj(call.summary).usage)).length > 0) return 'llm';
  if (/(chat\.completions\.create|completions\.create|messages\.create|generate_content|responses\.create)$/i.test(name)) return 'llm';

  const words = name.toLowerCase();
  if (/agent/.test(words)) return 'agent';
  if (/retriev|search|rerank|vector/.test(words)) return 'retriever';
  if (/tool/.test(words)) return 'tool';
  return 'op';
}
