// The errors the relay raises, in OpenAI's shape (type and code are what clients match on; they
// are written here once). Messages name router models and provider ids, never keys or URLs with
// credentials; an upstream's own message is passed through only after `redact`.
import type { RouterErrorBody } from './types.ts';

/** All endpoints were tried and none answered; `retry_after_sec` when known. */
export const upstreamUnavailable = (status: 502 | 503, message: string, retry_after_sec?: number): RouterErrorBody => ({
  status,
  type: 'upstream_error',
  code: 'upstream_unavailable',
  param: null,
  message,
  ...(retry_after_sec === undefined ? {} : { retry_after_sec }),
});

/** Every endpoint refused with 429. */
export const upstreamRateLimited = (message: string, retry_after_sec: number): RouterErrorBody => ({
  status: 429,
  type: 'rate_limit_error',
  code: 'upstream_rate_limited',
  param: null,
  message,
  retry_after_sec,
});

/** Every endpoint timed out (connect, first byte or total). */
export const upstreamTimeout = (message: string): RouterErrorBody => ({
  status: 504,
  type: 'timeout_error',
  code: 'upstream_timeout',
  param: null,
  message,
});

/** The upstream refused the request itself (400, 413, 422): retrying elsewhere would not help. */
export const upstreamRejected = (status: number, message: string, param: string | null): RouterErrorBody => ({
  status,
  type: 'invalid_request_error',
  code: 'upstream_rejected',
  param,
  message,
});

/** A stream that failed after its first event (in-band; the status was already sent). */
export const streamFailed = (
  code: 'upstream_error' | 'upstream_timeout' | 'upstream_incomplete' | 'invalid_response',
  message: string,
): RouterErrorBody => ({
  status: 502,
  type: code === 'upstream_timeout' ? 'timeout_error' : 'upstream_error',
  code,
  param: null,
  message,
});

/** The caller went away (or its deadline passed) before the answer ended. */
export const clientGone = (): RouterErrorBody => ({
  status: 499,
  type: 'client_closed',
  code: 'client_disconnected',
  param: null,
  message: 'The client closed the request before the answer ended',
});

/** The in-band SSE payload of an error: OpenAI's `{error:{message,type,param,code}}`. */
export const errorEvent = (body: RouterErrorBody): string =>
  JSON.stringify({ error: { message: body.message, type: body.type, param: body.param, code: body.code } });

/** Replaces every occurrence of the secrets in a text an upstream wrote (its error message may echo the key). */
export const redact = (text: string, secrets: readonly string[]): string =>
  secrets.reduce((t, s) => (s.length >= 4 ? t.split(s).join('[redacted]') : t), text);
