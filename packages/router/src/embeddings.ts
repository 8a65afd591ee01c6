// Embeddings through the first endpoint that answers, in the format the caller asked for, priced
// (prompt tokens at the endpoint's prompt price, plus its request price).
import { planEndpoints, priceUsage, servedBy } from './relay-deps.ts';
import type { EmbeddingsOutcome, EmbeddingsReq, EmbeddingsRes, PricedUsage } from './types.ts';
import { asFormat } from './upstream/embedding-format.ts';
import { AttemptFailure, type Body } from './upstream/send-attempt.ts';
import { tryEndpoints, type RelayContext } from './upstream/try-endpoints.ts';
import { embeddingsBody } from './upstream/upstream-body.ts';

async function readEmbeddings(body: Body, format: 'float' | 'base64'): Promise<EmbeddingsRes> {
  let value: unknown;
  try {
    value = JSON.parse(await body.text());
  } catch {
    throw new AttemptFailure('invalid_response', 'the upstream answer is not JSON');
  }
  const res = value as EmbeddingsRes;
  if (typeof value !== 'object' || value === null || !Array.isArray(res.data))
    throw new AttemptFailure('invalid_response', 'the upstream answer is not an embeddings list');
  for (const item of res.data) {
    const embedding = asFormat((item as { embedding?: unknown }).embedding, format);
    if (embedding === undefined) throw new AttemptFailure('invalid_response', 'the upstream sent an embedding that is not a vector');
    item.embedding = embedding;
  }
  return res;
}

export async function embeddings(ctx: RelayContext, request: EmbeddingsReq, signal: AbortSignal): Promise<EmbeddingsOutcome> {
  const format = request.encoding_format ?? 'float';
  const plan = planEndpoints(ctx.config, request, ctx.health, ctx.now());
  const tried = await tryEndpoints(ctx, plan, {
    model: request.model,
    path: '/embeddings',
    stream: false,
    body: (p) => embeddingsBody(request, p.endpoint.model),
    consume: (body) => readEmbeddings(body, format),
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
    const prompt = body.usage.prompt_tokens;
    priced = priceUsage({ prompt_tokens: prompt, completion_tokens: 0, total_tokens: body.usage.total_tokens }, served.pricing);
    body.usage = { ...body.usage, cost: Number(priced.cost_usd) };
    ctx.observer?.priced(served, priced);
  }
  return { body, served, priced, attempts: tried.attempts };
}
