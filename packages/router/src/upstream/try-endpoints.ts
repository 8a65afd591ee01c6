// Tries the planned endpoints in order until one answers: each endpoint up to 1 + retries times
// with backoff and full jitter, a `Retry-After` honoured up to max_retry_after_ms (longer: the
// next endpoint now), and the next endpoint on connect errors, timeouts, 429 and 5xx. Only
// failures before anything reached the client come here, so retrying is always safe.
import { clientGone, upstreamRateLimited, upstreamTimeout, upstreamUnavailable } from '../relay-errors.ts';
import type { HealthBook, PlannedEndpoint } from '../relay-deps.ts';
import { RouterError } from '../router-error.ts';
import type { Attempt, RouterConfig, RouterObserver } from '../types.ts';
import type { ProviderAgents } from './provider-agents.ts';
import { backoffMs } from './retry-after.ts';
import { AttemptFailure, sendAttempt, type AttemptSuccess, type Body } from './send-attempt.ts';
import type { AttemptControl } from './attempt-control.ts';

export interface RelayContext {
  config: RouterConfig;
  health: HealthBook;
  agents: ProviderAgents;
  observer: RouterObserver | undefined;
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
  random: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface TryRequest<T> {
  /** The router model asked for (for messages). */
  model: string;
  path: '/chat/completions' | '/embeddings';
  stream: boolean;
  /** The upstream body for an endpoint. */
  body: (planned: PlannedEndpoint) => string;
  /** Reads what must arrive before the answer is committed; throws AttemptFailure to try elsewhere. */
  consume: (body: Body, control: AttemptControl, planned: PlannedEndpoint) => Promise<T>;
  /** Facts of a successful answer for the health book (completion tokens: throughput). */
  detail?: (value: T) => { completion_tokens?: number };
  /** Streams report their successful attempt when the stream ends (with its whole latency). */
  defer_ok: boolean;
  signal: AbortSignal;
}

export interface Tried<T> extends AttemptSuccess<T> {
  planned: PlannedEndpoint;
  attempts: Attempt[];
  /** `now()` when the successful attempt was sent. */
  started: number;
}

const RETRYABLE = new Set(['connect', 'timeout', 'status_429', 'status_5xx', 'invalid_response']);

export async function tryEndpoints<T>(ctx: RelayContext, plan: PlannedEndpoint[], req: TryRequest<T>): Promise<Tried<T>> {
  const { routing } = ctx.config;
  const attempts: Attempt[] = [];
  const failures: { planned: PlannedEndpoint; failure: AttemptFailure }[] = [];
  for (const planned of plan) {
    for (let retry = 0; retry <= routing.retries; retry++) {
      if (req.signal.aborted) throw new RouterError(clientGone());
      const started = ctx.now();
      try {
        const success = await sendAttempt(
          {
            dispatcher: ctx.agents.get(planned.provider),
            provider: planned.provider,
            path: req.path,
            body: req.body(planned),
            stream: req.stream,
            env: ctx.env,
            signal: req.signal,
            now: ctx.now,
          },
          (body, control) => req.consume(body, control, planned),
        );
        const attempt = {
          model: planned.model.id,
          provider: planned.provider.id,
          outcome: 'ok',
          status: success.status,
          latency_ms: ctx.now() - started,
        };
        attempts.push(attempt);
        if (!req.defer_ok) {
          ctx.health.record(planned.key, 'ok', attempt.latency_ms, undefined, ctx.now(), {
            status: success.status,
            ...req.detail?.(success.value),
          });
          ctx.observer?.attempt(attempt);
        }
        return { ...success, planned, attempts, started };
      } catch (e) {
        if (!(e instanceof AttemptFailure)) throw e;
        const attempt: Attempt = {
          model: planned.model.id,
          provider: planned.provider.id,
          outcome: e.outcome,
          ...(e.status === undefined ? {} : { status: e.status }),
          latency_ms: ctx.now() - started,
        };
        attempts.push(attempt);
        ctx.observer?.attempt(attempt);
        ctx.health.record(
          planned.key,
          e.outcome,
          attempt.latency_ms,
          undefined,
          ctx.now(),
          e.status === undefined ? {} : { status: e.status },
        );
        if (e.outcome === 'aborted') throw new RouterError(clientGone());
        if (e.rejection !== undefined) throw new RouterError(e.rejection);
        failures.push({ planned, failure: e });
        if (!RETRYABLE.has(e.outcome) || retry === routing.retries) break;
        const wait = e.retry_after_ms;
        if (wait !== undefined && wait > routing.max_retry_after_ms) break;
        const jitter = backoffMs(retry, routing.backoff_ms, routing.max_backoff_ms, ctx.random);
        await ctx.sleep(Math.max(wait ?? 0, jitter), req.signal);
      }
    }
  }
  throw new RouterError(finalError(req.model, plan, failures));
}

/** What the client is told when no endpoint answered: the common cause, each endpoint's last failure. */
function finalError(model: string, plan: PlannedEndpoint[], failures: { planned: PlannedEndpoint; failure: AttemptFailure }[]) {
  const last = new Map<string, AttemptFailure>();
  for (const f of failures) last.set(f.planned.key, f.failure);
  const each = [...last.entries()].map(([key, f]) => {
    const provider = plan.find((p) => p.key === key)?.provider.id ?? '';
    return f.status === undefined ? `${f.outcome} from ${provider}` : f.message;
  });
  const n = new Set(plan.map((p) => p.key)).size;
  const message = `All ${n} endpoint${n === 1 ? '' : 's'} of ${model} failed: ${each.join('; ')}`;
  const outcomes = [...last.values()];
  const waits = outcomes.map((f) => f.retry_after_ms).filter((w): w is number => w !== undefined);
  const retryAfterSec = waits.length > 0 ? Math.max(1, Math.ceil(Math.min(...waits) / 1000)) : undefined;
  if (outcomes.length > 0 && outcomes.every((f) => f.outcome === 'status_429')) return upstreamRateLimited(message, retryAfterSec ?? 1);
  if (outcomes.length > 0 && outcomes.every((f) => f.outcome === 'timeout')) return upstreamTimeout(message);
  if (outcomes.some((f) => f.outcome === 'status_5xx' || f.outcome === 'invalid_response' || f.outcome === 'status_4xx'))
    return upstreamUnavailable(502, message, retryAfterSec);
  return upstreamUnavailable(503, message, retryAfterSec ?? 1);
}
