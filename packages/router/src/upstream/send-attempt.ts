// One try of one endpoint: POST the body, wait for the headers, and let `consume` read what it
// needs before the answer is committed (the whole JSON body, or a stream's first event) within
// the first-byte budget. Anything that fails before that is an AttemptFailure the caller may retry
// elsewhere; nothing here has reached the client yet.
import { request, type Dispatcher } from 'undici';
import { redact, upstreamRejected } from '../relay-errors.ts';
import type { ProviderConfig, RouterErrorBody } from '../types.ts';
import { AttemptControl } from './attempt-control.ts';
import { retryAfterMs } from './retry-after.ts';

export type Body = Dispatcher.ResponseData['body'];

export class AttemptFailure extends Error {
  constructor(
    /** Attempt['outcome']. */
    readonly outcome: 'connect' | 'timeout' | 'status_429' | 'status_5xx' | 'status_4xx' | 'invalid_response' | 'aborted',
    message: string,
    readonly status?: number,
    readonly retry_after_ms?: number,
    /** Set when the upstream refused the request itself: answered to the client as it is. */
    readonly rejection?: RouterErrorBody,
  ) {
    super(message);
    this.name = 'AttemptFailure';
  }
}

export interface AttemptInput {
  dispatcher: Dispatcher;
  provider: ProviderConfig;
  path: '/chat/completions' | '/embeddings';
  body: string;
  stream: boolean;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  now: () => number;
}

export interface AttemptSuccess<T> {
  value: T;
  status: number;
  /** Owns the upstream request from here: dispose when done, abort to cut it. */
  control: AttemptControl;
}

const MAX_ERROR_BODY = 64 * 1024;

export async function sendAttempt<T>(
  input: AttemptInput,
  consume: (body: Body, control: AttemptControl) => Promise<T>,
): Promise<AttemptSuccess<T>> {
  const { provider } = input;
  const key = provider.api_key_env === undefined ? undefined : input.env[provider.api_key_env];
  if (provider.api_key_env !== undefined && (key === undefined || key === '')) {
    throw new AttemptFailure('status_4xx', `the key variable ${provider.api_key_env} of provider ${provider.id} is not set`, 401);
  }
  const secrets = key === undefined ? [] : [key];
  const control = new AttemptControl(input.signal, provider.timeouts.total_ms);
  control.startFirstByte(provider.timeouts.first_byte_ms);
  let res: Dispatcher.ResponseData;
  try {
    res = await request(provider.base_url.replace(/\/+$/, '') + input.path, {
      dispatcher: input.dispatcher,
      method: 'POST',
      headers: {
        ...provider.headers,
        'content-type': 'application/json',
        accept: input.stream ? 'text/event-stream' : 'application/json',
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      },
      body: input.body,
      signal: control.signal,
    });
  } catch (e) {
    control.dispose();
    throw classify(e, control);
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const text = await readBounded(res.body).catch(() => '');
    control.dispose();
    throw statusFailure(res.statusCode, res.headers, text, provider.id, secrets, input.now());
  }
  try {
    const value = await consume(res.body, control);
    control.clearFirstByte();
    return { value, status: res.statusCode, control };
  } catch (e) {
    res.body.destroy();
    control.dispose();
    throw e instanceof AttemptFailure && control.cause === undefined ? e : classify(e, control);
  }
}

function classify(e: unknown, control: AttemptControl): AttemptFailure {
  if (control.cause === 'aborted') return new AttemptFailure('aborted', 'the caller went away');
  if (control.cause === 'timeout') return new AttemptFailure('timeout', 'timed out');
  if (e instanceof AttemptFailure) return e;
  const code = (e as { code?: unknown }).code;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new AttemptFailure('timeout', 'connect timed out');
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return new AttemptFailure('timeout', 'timed out');
  // Connection refused or reset, DNS, TLS, a socket closed before the answer: the upstream did not answer.
  return new AttemptFailure('connect', typeof code === 'string' ? `connection failed (${code})` : 'connection failed');
}

async function readBounded(body: Body): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_ERROR_BODY) break;
    parts.push(b);
  }
  body.destroy();
  return Buffer.concat(parts).toString('utf8');
}

interface UpstreamErrorFields {
  message?: string;
  param?: string | null;
}

function errorFields(text: string): UpstreamErrorFields {
  try {
    const parsed = JSON.parse(text) as unknown;
    const err = typeof parsed === 'object' && parsed !== null ? ((parsed as { error?: unknown }).error ?? parsed) : undefined;
    if (typeof err !== 'object' || err === null) return typeof err === 'string' ? { message: err } : {};
    const { message, param } = err as { message?: unknown; param?: unknown };
    return {
      ...(typeof message === 'string' ? { message } : {}),
      ...(typeof param === 'string' ? { param } : {}),
    };
  } catch {
    return {};
  }
}

function statusFailure(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  provider: string,
  secrets: string[],
  now: number,
): AttemptFailure {
  const fields = errorFields(text);
  const upstreamMessage = redact((fields.message ?? '').slice(0, 500), secrets);
  const message = `${status} from ${provider}${upstreamMessage === '' ? '' : `: ${upstreamMessage}`}`;
  const wait = retryAfterMs(headers, now);
  if (status === 429) return new AttemptFailure('status_429', message, status, wait);
  if (status >= 500) return new AttemptFailure('status_5xx', message, status, wait);
  if (status === 400 || status === 413 || status === 422) {
    const rejection = upstreamRejected(status, `The upstream refused the request: ${message}`, fields.param ?? null);
    return new AttemptFailure('status_4xx', message, status, undefined, rejection);
  }
  return new AttemptFailure('status_4xx', message, status, wait);
}
