// Which attributes of which instrumentation become a call's inputs, output, usage and attributes.
// Weave's lists, in the order: the GenAI semantic
// conventions first, then OpenInference, the Vercel AI SDK, OpenLLMetry, MLflow and the rest. Keys
// found nested too (`ai.prompt` finds `ai.prompt.messages`).

export const INPUT_KEYS = [
  'gen_ai.input.messages',
  'gen_ai.prompt',
  'input.value',
  'llm.input_messages',
  'ai.prompt',
  'traceloop.entity.input',
  'mlflow.spanInputs',
  'pydantic_ai.all_messages',
  'gcp.vertex.agent.tool_call_args',
  'gcp.vertex.agent.llm_request',
  'events.gen_ai.user.message',
  'input',
  'inputs',
] as const;

export const OUTPUT_KEYS = [
  'gen_ai.output.messages',
  'gen_ai.completion',
  'output.value',
  'llm.output_messages',
  'ai.response',
  'traceloop.entity.output',
  'mlflow.spanOutputs',
  'gen_ai.content.completion',
  'final_result',
  'gcp.vertex.agent.tool_response',
  'gcp.vertex.agent.llm_response',
  'events.gen_ai.choice',
  'output',
  'outputs',
] as const;

/**
 * Token counts (flat keys, integers). Besides Weave's: the AI SDK's current names
 * (`ai.usage.inputTokens`/`outputTokens`/`totalTokens`, which Weave misses) and cached tokens.
 */
export const USAGE_KEYS = {
  input_tokens: ['gen_ai.usage.input_tokens', 'ai.usage.inputTokens'],
  output_tokens: ['gen_ai.usage.output_tokens', 'ai.usage.outputTokens'],
  prompt_tokens: ['gen_ai.usage.prompt_tokens', 'llm.token_count.prompt', 'ai.usage.promptTokens'],
  completion_tokens: ['gen_ai.usage.completion_tokens', 'llm.token_count.completion', 'ai.usage.completionTokens'],
  total_tokens: ['gen_ai.usage.total_tokens', 'llm.usage.total_tokens', 'llm.token_count.total', 'ai.usage.totalTokens'],
  cached_tokens: [
    'gen_ai.usage.cache_read_input_tokens',
    'gen_ai.usage.cached_tokens',
    'llm.token_count.prompt_details.cache_read',
    'ai.usage.cachedInputTokens',
    'ai.usage.inputTokenDetails.cacheReadTokens',
  ],
} as const;

/** Call attributes (at the root of `attributes`, as Weave puts them), the first key present wins. */
export const ATTRIBUTE_KEYS = {
  model: ['gen_ai.response.model', 'gen_ai.request.model', 'llm.model_name', 'ai.response.model', 'ai.model.id'],
  provider: ['gen_ai.provider.name', 'llm.provider', 'ai.model.provider'],
  system: ['gen_ai.system', 'llm.system', 'gen_ai.system_instructions', 'system_prompt'],
  kind: ['weave.span.kind', 'traceloop.span.kind', 'openinference.span.kind'],
  model_parameters: ['gen_ai.request', 'llm.invocation_parameters', 'ai.settings'],
  agent: ['gen_ai.agent.name'],
  tools: ['gen_ai.agent.tools', 'gen_ai.tool.definitions', 'llm.tools'],
  operation: ['gen_ai.operation.name'],
} as const;

/** The call's thread: Weave's own key, then the conventions' conversation and session ids. */
export const THREAD_KEYS = ['wandb.thread_id', 'gen_ai.conversation.id', 'session.id', 'gcp.vertex.agent.session_id'] as const;
