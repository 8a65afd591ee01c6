// The router's errors in OpenAI's shape: the one place their `type` and `code` strings are
// spelled (the spec's OpenAIError lists the types). Add constructors here rather than writing a
// type string elsewhere.
import { RouterError } from './router-error.ts';
import type { RouterErrorBody } from './types.ts';

export const OPENAI_ERROR_TYPES = Object.freeze({
  invalidRequest: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  notFound: 'not_found_error',
  rateLimit: 'rate_limit_error',
  budgetExceeded: 'budget_exceeded',
  timeout: 'timeout_error',
  upstream: 'upstream_error',
  server: 'server_error',
  serviceUnavailable: 'service_unavailable',
  /** Only in the record of a call whose client went away (clientGone); never sent. */
  clientClosed: 'client_closed',
} as const);

/** A `model` (or `models[i]`) the router file does not declare: 404 as OpenAI answers an unknown model. */
export const modelNotFound = (model: string, param: string) =>
  new RouterError({
    status: 404,
    type: OPENAI_ERROR_TYPES.invalidRequest,
    code: 'model_not_found',
    param,
    message: `The model ${JSON.stringify(model)} does not exist on this router (GET /inference/router/gateway/models lists them)`,
  });

/** A request field the router cannot honour as given. */
export const invalidParam = (param: string, message: string) =>
  new RouterError({ status: 400, type: OPENAI_ERROR_TYPES.invalidRequest, code: 'invalid_value', param, message });

/** No endpoint is left to try once the request's preferences are applied (OpenRouter answers 503 too). */
export const noEndpoint = (message: string) =>
  new RouterError({ status: 503, type: OPENAI_ERROR_TYPES.serviceUnavailable, code: 'no_endpoint', param: null, message });

// The relay's errors. Bodies rather than RouterErrors: the same values end a stream in-band.

/** All endpoints were tried and none answered; `retry_after_sec` when known. */
export const upstreamUnavailable = (status: 502 | 503, message: string, retry_after_sec?: number): RouterErrorBody => ({
  status,
  type: OPENAI_ERROR_TYPES.upstream,
  code: 'upstream_unavailable',
  param: null,
  message,
  ...(retry_after_sec === undefined ? {} : { retry_after_sec }),
});

/** Every endpoint refused with 429. */
export const upstreamRateLimited = (message: string, retry_after_sec: number): RouterErrorBody => ({
  status: 429,
  type: OPENAI_ERROR_TYPES.rateLimit,
  code: 'upstream_rate_limited',
  param: null,
  message,
  retry_after_sec,
});

/** Every endpoint timed out (connect, first byte or total). */
export const upstreamTimeout = (message: string): RouterErrorBody => ({
  status: 504,
  type: OPENAI_ERROR_TYPES.timeout,
  code: 'upstream_timeout',
  param: null,
  message,
});

/** The upstream refused the request itself (400, 413, 422): retrying elsewhere would not help. */
export const upstreamRejected = (status: number, message: string, param: string | null): RouterErrorBody => ({
  status,
  type: OPENAI_ERROR_TYPES.invalidRequest,
  code: 'upstream_rejected',
  param,
  message,
});

/** A stream that failed after its first event (in-band: the status was already sent). */
export const streamFailed = (
  code: 'upstream_error' | 'upstream_timeout' | 'upstream_incomplete' | 'invalid_response',
  message: string,
): RouterErrorBody => ({
  status: 502,
  type: code === 'upstream_timeout' ? OPENAI_ERROR_TYPES.timeout : OPENAI_ERROR_TYPES.upstream,
  code,
  param: null,
  message,
});

/**
 * The caller went away (or its deadline passed) before the answer ended. Never sent (nobody is
 * listening); it is what the record of the call says. 499 as nginx logs a client that closed.
 */
export const clientGone = (): RouterErrorBody => ({
  status: 499,
  type: OPENAI_ERROR_TYPES.clientClosed,
  code: 'client_disconnected',
  param: null,
  message: 'The client closed the request before the answer ended',
});
