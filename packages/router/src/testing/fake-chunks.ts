// Builders of OpenAI-shaped answers for the fake upstream: whole completions, streamed chunks
// (text, tool-call deltas as providers send them), embeddings. Plain objects, so a test can
// change any field before scripting them.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: JsonObject;
  completion_tokens_details?: JsonObject;
}

export const usageOf = (prompt: number, completion: number, cached?: number): FakeUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
});

export interface CompletionOptions {
  id?: string;
  model?: string;
  finish_reason?: string;
  usage?: FakeUsage;
  tool_calls?: { id: string; name: string; arguments: string }[];
}

/** A non-streamed chat completion with one choice. */
export const completion = (content: string | null, options: CompletionOptions = {}): JsonObject => ({
  id: options.id ?? 'chatcmpl-fake',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: options.model ?? 'upstream-model',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content,
        refusal: null,
        ...(options.tool_calls === undefined
          ? {}
          : {
              tool_calls: options.tool_calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: c.arguments },
              })),
            }),
      },
      logprobs: null,
      finish_reason: options.finish_reason ?? (options.tool_calls === undefined ? 'stop' : 'tool_calls'),
    },
  ],
  usage: (options.usage ?? usageOf(9, 1)) as unknown as JsonObject,
});

export interface ChunkOptions {
  id?: string;
  model?: string;
}

/** One `chat.completion.chunk` with the given choices. */
export const chunk = (choices: Json[], options: ChunkOptions = {}): JsonObject => ({
  id: options.id ?? 'chatcmpl-fake',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: options.model ?? 'upstream-model',
  choices,
  usage: null,
});

/** A delta choice (`finish_reason` null unless given). */
export const delta = (index: number, d: JsonObject, finish_reason: string | null = null, logprobs?: Json): Json => ({
  index,
  delta: d,
  finish_reason,
  ...(logprobs === undefined ? {} : { logprobs }),
});

/** A streamed text answer: a role chunk, one chunk per part, and a finish chunk. */
export const textChunks = (parts: string[], options: ChunkOptions & { finish_reason?: string } = {}): JsonObject[] => [
  chunk([delta(0, { role: 'assistant', content: '' })], options),
  ...parts.map((p) => chunk([delta(0, { content: p })], options)),
  chunk([delta(0, {}, options.finish_reason ?? 'stop')], options),
];

export interface StreamedToolCall {
  id: string;
  name: string;
  /** Fragments of the arguments' JSON text, one delta each. */
  fragments: string[];
}

/**
 * Tool-call deltas as providers stream them: the first delta of each call carries index, id, type
 * and name with empty arguments, later deltas only `{index, function:{arguments}}`. Parallel calls
 * are interleaved fragment by fragment, so a relay that merges by position rather than by index fails.
 */
export const toolCallChunks = (calls: StreamedToolCall[], options: ChunkOptions = {}): JsonObject[] => {
  const out: JsonObject[] = [chunk([delta(0, { role: 'assistant', content: null })], options)];
  calls.forEach((c, i) =>
    out.push(
      chunk([delta(0, { tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] })], options),
    ),
  );
  const longest = Math.max(0, ...calls.map((c) => c.fragments.length));
  for (let f = 0; f < longest; f++) {
    calls.forEach((c, i) => {
      const fragment = c.fragments[f];
      if (fragment !== undefined) out.push(chunk([delta(0, { tool_calls: [{ index: i, function: { arguments: fragment } }] })], options));
    });
  }
  out.push(chunk([delta(0, {}, 'tool_calls')], options));
  return out;
};

/** The usage chunk: empty choices, the totals. */
export const usageChunk = (usage: FakeUsage, options: ChunkOptions = {}): JsonObject => ({
  ...chunk([], options),
  usage: usage as unknown as JsonObject,
});

/** An embeddings answer with float vectors. */
export const embeddings = (vectors: number[][], options: { model?: string; usage?: FakeUsage } = {}): JsonObject => ({
  object: 'list',
  data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
  model: options.model ?? 'upstream-embedder',
  usage: { prompt_tokens: options.usage?.prompt_tokens ?? 4, total_tokens: options.usage?.total_tokens ?? 4 },
});

/** Base64 of little-endian float32 bytes, as OpenAI answers `encoding_format: "base64"`. */
export const float32Base64 = (vector: number[]): string => {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
  return bytes.toString('base64');
};

/** An error body in OpenAI's shape. */
export const openAIError = (message: string, type = 'server_error', code: string | null = null): JsonObject => ({
  error: { message, type, param: null, code },
});
