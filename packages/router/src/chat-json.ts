// A non-streamed chat completion: the first endpoint whose whole JSON answer arrives within its
// first-byte budget serves it; the answer is rewritten (`model` the router model, `provider`,
// `usage.cost`) and priced.
import { planEndpoints, priceUsage, servedBy } from './relay-deps.ts';
import type { ChatCompletion, ChatCompletionReq, ChatOutcome, PricedUsage } from './types.ts';
import { AttemptFailure, type Body } from './upstream/send-attempt.ts';
import { tryEndpoints, type RelayContext } from './upstream/try-endpoints.ts';
import { chatBody } from './upstream/upstream-body.ts';

async function readCompletion(body: Body): Promise<ChatCompletion> {
  let value: unknown;
  try {
    value = JSON.parse(await body.text());
  } catch {
    throw new AttemptFailure('invalid_response', 'the upstream answer is not JSON');
  }
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { choices?: unknown }).choices))
    throw new AttemptFailure('invalid_response', 'the upstream answer is not a chat completion');
  return value as ChatCompletion;
}

export async function chatJson(ctx: RelayContext, request: ChatCompletionReq, signal: AbortSignal): Promise<ChatOutcome> {
  const plan = planEndpoints(ctx.config, request, ctx.health, ctx.now());
  const tried = await tryEndpoints(ctx, plan, {
    model: request.model,
    path: '/chat/completions',
    stream: false,
    body: (p) => chatBody(request, p.endpoint.model),
    consume: readCompletion,
    detail: (c) => (typeof c.usage?.completion_tokens === 'number' ? { completion_tokens: c.usage.completion_tokens } : {}),
    defer_ok: false,
    signal,
  });
  tried.control.dispose();
  const { planned } = tried;
  const served = servedBy(planned);
  const body = tried.value;
  body.model = served.model;
  body.provider = served.provider;
  let priced: PricedUsage | undefined;
  if (typeof body.usage === 'object' && body.usage !== null) {
    priced = priceUsage(body.usage, served.pricing);
    body.usage = { ...body.usage, cost: Number(priced.cost_usd) };
    ctx.observer?.priced(served, priced);
  }
  return { kind: 'json', body, served, priced, attempts: tried.attempts };
}
