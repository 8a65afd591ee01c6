/** Token counts for one model, normalised from a stored `summary.usage` entry. */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  requests: number;
  /** Clamped to prompt_tokens: cached tokens are a part of the prompt. */
  cached_tokens: number;
  /**
   * Prompt tokens written to the cache (Weave's `cache_creation_input_tokens`), a part of the
   * prompt beside the cached ones: clamped to prompt_tokens - cached_tokens.
   */
  cache_creation_tokens: number;
}

/**
 * Normalises one model's usage record. This runs at read time on
 * whatever was stored, so it never throws: anything that is not a
 * non-negative finite number counts as 0 (fractions are truncated), and
 * OpenAI-style names win over the `input_tokens`/`output_tokens`
 * aliases some SDKs send.
 */
export function readUsage(raw: unknown): TokenUsage {
  const record = isRecord(raw) ? raw : {};
  const prompt_tokens = count(first(record.prompt_tokens, record.input_tokens));
  const completion_tokens = count(first(record.completion_tokens, record.output_tokens));
  const cached = count(
    first(
      record.cached_tokens,
      details(record.prompt_tokens_details),
      // OpenAI's Responses API names the details after input_tokens.
      details(record.input_tokens_details),
    ),
  );
  const cached_tokens = Math.min(cached, prompt_tokens);
  const total = first(record.total_tokens);
  const requests = first(record.requests);
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: total === undefined ? prompt_tokens + completion_tokens : count(total),
    // A usage record exists because a call was made: one request unless told otherwise.
    requests: requests === undefined ? 1 : count(requests),
    cached_tokens,
    cache_creation_tokens: Math.min(count(first(record.cache_creation_input_tokens)), prompt_tokens - cached_tokens),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** First value that is present at all (null counts as absent). */
function first(...values: unknown[]): unknown {
  return values.find((v) => v !== undefined && v !== null);
}

function details(value: unknown): unknown {
  return isRecord(value) ? value.cached_tokens : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.trunc(value) : 0;
}
