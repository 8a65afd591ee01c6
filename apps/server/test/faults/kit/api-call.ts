// One HTTP call to the server under test as the fault tests need to see it: the status, the raw
// text (values are compared as the text the server wrote), Retry-After, how long it took, and,
// when no answer came, why (a timeout, or the connection's error code), never a thrown error.
import { authorizationHeader } from '@weft/client';

export interface ApiAnswer {
  kind: 'answer';
  status: number;
  text: string;
  headers: Headers;
  ms: number;
}

export interface ApiFailure {
  kind: 'failure';
  /** 'timeout' (our deadline passed), or the connection's code: ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, … */
  code: string;
  message: string;
  ms: number;
}

export type ApiOutcome = ApiAnswer | ApiFailure;

export interface CallOptions {
  /** An API key, sent as Weave SDKs send it (Basic `api:<key>`); none: no Authorization header. */
  key?: string;
  method?: string;
  /** The client's deadline for the whole answer. */
  timeoutMs?: number;
}

export async function apiCall(baseUrl: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<ApiOutcome> {
  const started = performance.now();
  const headers: Record<string, string> = {};
  if (opts.key) headers.authorization = authorizationHeader({ scheme: 'basic', apiKey: opts.key });
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(baseUrl + path, {
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    return { kind: 'answer', status: res.status, text, headers: res.headers, ms: performance.now() - started };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const code = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.name);
    return { kind: 'failure', code, message: e.cause?.message ?? e.message, ms: performance.now() - started };
  }
}

/** A short label for counting outcomes: '200', '503', 'timeout', 'ECONNREFUSED'. */
export const outcomeLabel = (o: ApiOutcome): string => (o.kind === 'answer' ? String(o.status) : o.code);

/** Retry-After in milliseconds (seconds or an HTTP date), when the answer carries one. */
export function retryAfterMs(o: ApiOutcome): number | undefined {
  const value = o.kind === 'answer' ? o.headers.get('retry-after') : null;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The parsed body of a 2xx answer; throws with the status and text otherwise. */
export function answerJson<T>(o: ApiOutcome, what: string): T {
  if (o.kind === 'answer' && o.status >= 200 && o.status < 300) return JSON.parse(o.text) as T;
  throw new Error(`${what}: ${o.kind === 'answer' ? `${o.status} ${o.text.slice(0, 500)}` : `${o.code} ${o.message}`}`);
}
