// The router's call, shaped as Weave's OpenAI integrations record one (reference router-gateway
// §4.1–4.2), so Studio's chat view, op-name filters and cost queries treat it like an SDK's call:
// op `openai.chat.completions.create`, inputs = the request body, output = the final
// ChatCompletion, summary.usage keyed by the model that served it.
import type { Attempt, PricedUsage, RouterErrorBody, Served } from '@weft/router';
import type * as T from '@weft/types';
import type { Principal } from '../auth/index.ts';

export type RouterOp = 'openai.chat.completions.create' | 'openai.embeddings.create';

export interface RecordStart {
  projectId: string;
  principal: Principal;
  op: RouterOp;
  inputs: Record<string, unknown>;
  recordContent: boolean;
  parent: { trace_id: string; parent_id: string | undefined } | undefined;
  startedAt: Date;
  requestedModel: string;
  stream: boolean;
  clientUserAgent?: string;
  /** Set when an LLM-as-judge asks (src/judges/): what it judges, kept in the call's attributes. */
  judge?: { judgement_id: string; call_id: string; scorer_ref: string; monitor_ref: string | null };
}

export interface RecordFinish {
  output: unknown;
  served: Served | undefined;
  priced: PricedUsage | undefined;
  attempts: Attempt[];
  error: RouterErrorBody | undefined;
  endedAt: Date;
}

/** Where the router's exact price of a call is kept (summary.gateway): read back by cost queries. */
export interface RecordedGatewayCost {
  model: string;
  provider: string;
  upstream_model: string;
  /** USD, exact decimal string, including per-request prices Weave's cost entries have no slot for. */
  cost_usd: string;
  pricing: Served['pricing'];
}

const MAX_USER_AGENT = 512;
// Body fields that carry credentials in some clients' extensions; never stored.
const CREDENTIAL = /^(api[_-]?key|authorization|password|secret|token|access[_-]?token)$/i;
// What "content" is, per op: the messages (and a predicted output) of a chat, the input of embeddings.
const CONTENT_INPUTS: Record<RouterOp, readonly string[]> = {
  'openai.chat.completions.create': ['messages', 'prediction'],
  'openai.embeddings.create': ['input'],
};

/** The request body as received, without credentials, and without content when it is off. */
export function shapeInputs(op: RouterOp, body: Record<string, unknown>, recordContent: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (CREDENTIAL.test(key)) continue;
    if (!recordContent && CONTENT_INPUTS[op].includes(key)) continue;
    // defineProperty: a body key "__proto__" stays a plain key.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The start half. Attributes are written with the start (Weave has no way to change them later),
 * so the start is written again at the end with what was learnt meanwhile (served model, provider,
 * attempts): call/start replaces a start's columns and keeps its end (store call-start.ts).
 */
export function shapeStart(s: RecordStart, ids: { id: string; trace_id: string }, finish?: RecordFinish): T.StartedCall {
  return {
    project_id: s.projectId,
    id: ids.id,
    trace_id: ids.trace_id,
    parent_id: s.parent?.parent_id ?? null,
    op_name: s.op,
    started_at: s.startedAt.toISOString(),
    attributes: { weave: { source: 'weft-gateway' }, gateway: gatewayAttributes(s, finish), ...(s.judge ? { judge: s.judge } : {}) },
    inputs: shapeInputs(s.op, s.inputs, s.recordContent),
  };
}

function gatewayAttributes(s: RecordStart, f: RecordFinish | undefined): Record<string, unknown> {
  const attempts = f?.attempts ?? [];
  const tried = new Set(attempts.map((a) => `${a.model}\u0000${a.provider}`));
  return {
    requested_model: s.requestedModel,
    served_model: f?.served?.model ?? null,
    provider: f?.served?.provider ?? null,
    deployment: f?.served?.upstream_model ?? null,
    attempts: attempts.map((a) => ({
      model: a.model,
      provider: a.provider,
      outcome: a.outcome,
      status: a.status ?? null,
      latency_ms: a.latency_ms,
    })),
    // Endpoints given up on before the one that served (retries of one endpoint are not fallbacks).
    fallbacks_used: Math.max(0, tried.size - 1),
    stream: s.stream,
    client_ua: s.clientUserAgent?.slice(0, MAX_USER_AGENT) ?? null,
  };
}

/** The end half: output, summary (usage and the exact cost), and the exception on failure. */
export function shapeEnd(s: RecordStart, ids: { id: string; trace_id: string }, f: RecordFinish): T.EndedCall {
  const summary: Record<string, unknown> = {};
  if (f.priced && f.served) {
    const { cost: _cost, ...usage } = f.priced.usage;
    // Python's weave_client writes {requests: 1, **usage}; the float `cost` of the answer stays
    // out of it (usage entries are summed up a trace: the exact decimal below is the cost).
    summary.usage = { [f.served.model]: { requests: 1, ...usage } };
    const gateway: RecordedGatewayCost = {
      model: f.served.model,
      provider: f.served.provider,
      upstream_model: f.served.upstream_model,
      cost_usd: f.priced.cost_usd,
      pricing: f.served.pricing,
    };
    summary.gateway = gateway;
  }
  return {
    project_id: s.projectId,
    id: ids.id,
    trace_id: ids.trace_id,
    started_at: s.startedAt.toISOString(),
    ended_at: f.endedAt.toISOString(),
    output: s.recordContent ? shapeOutput(s.op, f.output) : null,
    summary,
    exception: f.error ? exceptionJson(f.error) : null,
  };
}

/**
 * A chat's output is the final ChatCompletion as is. Embedding vectors are left out (their count
 * and size are kept): they are large, unreadable, and reproducible from the recorded input.
 */
export function shapeOutput(op: RouterOp, output: unknown): unknown {
  if (op !== 'openai.embeddings.create' || !isRecord(output) || !Array.isArray(output.data)) return output ?? null;
  return {
    ...output,
    data: output.data.map((item: unknown) => {
      if (!isRecord(item)) return item;
      const { embedding, ...rest } = item;
      return { ...rest, dimensions: dimensionsOf(embedding) };
    }),
  };
}

function dimensionsOf(embedding: unknown): number | null {
  if (Array.isArray(embedding)) return embedding.length;
  // base64 of little-endian float32s: 4 bytes a dimension.
  if (typeof embedding === 'string') return Math.floor(Buffer.byteLength(embedding, 'base64') / 4);
  return null;
}

// The class names the `openai` clients raise for each status, as Python's exception_to_json_str
// names an exception by its class.
const ERROR_CLASS: Record<number, string> = {
  400: 'BadRequestError',
  401: 'AuthenticationError',
  403: 'PermissionDeniedError',
  404: 'NotFoundError',
  409: 'ConflictError',
  422: 'UnprocessableEntityError',
  429: 'RateLimitError',
};

/** Weave's exception form, `{"type": <class>, "message": …}`, with OpenAI's error fields beside. */
export function exceptionJson(error: RouterErrorBody): string {
  const type = ERROR_CLASS[error.status] ?? (error.status >= 500 ? 'InternalServerError' : 'APIError');
  return JSON.stringify({
    type,
    message: error.message,
    status: error.status,
    error_type: error.type,
    code: error.code,
    param: error.param,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
