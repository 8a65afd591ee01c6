// A streamed chat completion: an endpoint is committed to only once its first event has arrived
// (within the first-byte budget), so a stream that fails before that still falls back; after
// it, nothing is retried and failures end the events with one error event.
import { planEndpoints, servedBy } from './relay-deps.ts';
import { parsePayload, relayStream } from './sse/stream-relay.ts';
import { SseReadError, SseReader } from './sse/sse-reader.ts';
import type { ChatCompletionChunk, ChatCompletionReq, ChatOutcome } from './types.ts';
import type { AttemptControl } from './upstream/attempt-control.ts';
import { AttemptFailure, type Body } from './upstream/send-attempt.ts';
import { tryEndpoints, type RelayContext } from './upstream/try-endpoints.ts';
import { chatBody } from './upstream/upstream-body.ts';

interface Opened {
  reader: SseReader;
  body: Body;
  first: ChatCompletionChunk;
  first_at: number;
}

async function openStream(
  ctx: RelayContext,
  body: Body,
  control: AttemptControl,
  first_byte_ms: number,
  secrets: string[],
): Promise<Opened> {
  const reader = new SseReader(body);
  const deadline = Date.now() + first_byte_ms;
  let read;
  try {
    read = await reader.next(first_byte_ms, deadline);
  } catch (e) {
    if (control.cause !== undefined || !(e instanceof SseReadError)) throw e;
    throw new AttemptFailure(e.reason === 'idle_timeout' ? 'timeout' : 'connect', e.message);
  }
  if (read.kind === 'eof') throw new AttemptFailure('invalid_response', 'the stream ended before its first event');
  const parsed = parsePayload(read.event.data, read.event.event, secrets);
  if (parsed.kind === 'done') throw new AttemptFailure('invalid_response', 'the stream ended before its first chunk');
  if (parsed.kind === 'error') throw new AttemptFailure('invalid_response', parsed.error.message);
  return { reader, body, first: parsed.chunk, first_at: ctx.now() };
}

export async function chatStream(ctx: RelayContext, request: ChatCompletionReq, signal: AbortSignal): Promise<ChatOutcome> {
  const plan = planEndpoints(ctx.config, request, ctx.health, ctx.now());
  const secretsOf = (env: string | undefined) => (env === undefined || !ctx.env[env] ? [] : [ctx.env[env]]);
  const tried = await tryEndpoints(ctx, plan, {
    model: request.model,
    path: '/chat/completions',
    stream: true,
    body: (p) => chatBody(request, p.endpoint.model),
    consume: (body, control, p) => openStream(ctx, body, control, p.provider.timeouts.first_byte_ms, secretsOf(p.provider.api_key_env)),
    defer_ok: true,
    signal,
  });
  const { planned, value, control, started, attempts } = tried;
  const served = servedBy(planned);
  const ttft_ms = value.first_at - started;
  const { events, result } = relayStream(
    {
      served,
      // OpenRouter's `usage: {include: true}` asks for the same chunk.
      include_usage:
        request.stream_options?.include_usage === true || request.usage?.include === true || ctx.config.routing.always_include_usage,
      idle_ms: planned.provider.timeouts.idle_ms,
      secrets: secretsOf(planned.provider.api_key_env),
      ttft_ms,
      report: (error, priced) => {
        const latency_ms = ctx.now() - started;
        const outcome =
          error === undefined
            ? 'ok'
            : error.code === 'client_disconnected'
              ? 'aborted'
              : error.code === 'upstream_timeout'
                ? 'timeout'
                : 'invalid_response';
        const tokens = priced?.usage.completion_tokens;
        ctx.health.record(planned.key, outcome, latency_ms, ttft_ms, ctx.now(), {
          status: 200,
          ...(typeof tokens === 'number' ? { completion_tokens: tokens } : {}),
        });
        ctx.observer?.attempt({ model: served.model, provider: served.provider, outcome, status: 200, latency_ms, ttft_ms });
        if (priced !== undefined) ctx.observer?.priced(served, priced);
      },
    },
    value.reader,
    value.body,
    control,
    value.first,
  );
  return { kind: 'stream', served, attempts, events, result };
}
