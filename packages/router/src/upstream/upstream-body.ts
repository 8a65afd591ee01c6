// The body sent upstream: the client's request as it came, less the router's own fields
// (`models`, `provider`, `usage`), with `model` the endpoint's upstream model name. Streams always
// ask for usage (the cost needs it); whether the client sees that chunk is the relay's business.
import type { ChatCompletionReq, EmbeddingsReq } from '../types.ts';

export function chatBody(req: ChatCompletionReq, upstreamModel: string): string {
  const { models: _models, provider: _provider, usage: _usage, ...rest } = req;
  const body: Record<string, unknown> = { ...rest, model: upstreamModel };
  if (req.stream === true) body.stream_options = { ...(req.stream_options ?? {}), include_usage: true };
  return JSON.stringify(body);
}

export function embeddingsBody(req: EmbeddingsReq, upstreamModel: string): string {
  const { provider: _provider, ...rest } = req;
  return JSON.stringify({ ...rest, model: upstreamModel });
}
