// Errors of the operations that say `x-weft-errors: openai` (the router's OpenAI wire), in OpenAI's
// shape `{error:{message,type,param,code}}` with OpenAI's statuses, so the `openai` client and the
// AI SDK read them (APIError.status, .error) and retry the ones OpenAI's clients retry. The
// differences from the seed's shape: a request that breaks the schema or is not JSON is a 400
// `invalid_request_error` naming the field in `param` (not 422 `{detail}`); a catalogue error keeps
// its status and headers (Retry-After, WWW-Authenticate) and its stable error_type as `code`; the
// router's own errors (RouterError) carry their OpenAI type and code as they are.
import type { Response } from 'express';
import { isWeftError, type WeftError } from '@weft/core';
import { OPENAI_ERROR_TYPES, type RouterErrorBody } from '@weft/router';
import { toValidationDetails, type ValidationDetail } from './validation-error.ts';

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** OpenAI's `error.type` for a status, for errors that are not the router's own. */
const TYPE_BY_STATUS: Record<number, string> = {
  400: OPENAI_ERROR_TYPES.invalidRequest,
  401: OPENAI_ERROR_TYPES.authentication,
  403: OPENAI_ERROR_TYPES.permission,
  404: OPENAI_ERROR_TYPES.notFound,
  408: OPENAI_ERROR_TYPES.timeout,
  429: OPENAI_ERROR_TYPES.rateLimit,
  503: OPENAI_ERROR_TYPES.serviceUnavailable,
  504: OPENAI_ERROR_TYPES.timeout,
};
const typeOf = (status: number) =>
  TYPE_BY_STATUS[status] ?? (status >= 500 ? OPENAI_ERROR_TYPES.server : OPENAI_ERROR_TYPES.invalidRequest);

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
  message?: string;
  detail?: ValidationDetail[];
}

/**
 * The validation problems of an error, when it is one: the validator's (400 with `errors`), the
 * body reader's (422 `detail`: numbers out of range, keys twice) or malformed JSON.
 */
export function openAIValidationError(err: unknown): OpenAIErrorBody | undefined {
  const e = (err ?? {}) as HttpLikeError;
  const status = e.status ?? e.statusCode;
  let details: ValidationDetail[] | undefined;
  if (status === 422 && Array.isArray(e.detail)) details = e.detail;
  else if (status === 400 && Array.isArray(e.errors)) details = toValidationDetails(e.errors);
  else if (e.type === 'entity.parse.failed')
    return body(`We could not parse the JSON body of your request: ${e.message ?? 'malformed JSON'}`, typeOf(400), null, null);
  if (!details || details.length === 0) return undefined;
  const message = details.map((d) => `${paramOf(d.loc) ?? d.loc.join('.')}: ${d.msg}`).join('; ');
  return body(message, typeOf(400), paramOf(details[0]!.loc), details[0]!.type);
}

/** Sends a validation problem as OpenAI's 400. */
export function sendOpenAIValidation(res: Response, error: OpenAIErrorBody): void {
  res.status(400).json(error);
}

/** Sends a catalogue error or a RouterError in OpenAI's shape, with its status and headers. */
export function sendOpenAIError(res: Response, err: WeftError | RouterErrorBody): void {
  if (!isWeftError(err)) {
    const routed = err;
    if (routed.retry_after_sec !== undefined) res.setHeader('Retry-After', String(Math.max(0, Math.ceil(routed.retry_after_sec))));
    // The router has tried every endpoint (with its own retries and fallbacks): a client that
    // retried too would multiply them. With a Retry-After, waiting and trying again is right.
    else if (routed.status >= 500) res.setHeader('x-should-retry', 'false');
    res.status(routed.status).json(body(routed.message, routed.type, routed.param, routed.code));
    return;
  }
  for (const [name, value] of Object.entries(err.headers)) if (value !== '') res.setHeader(name, value);
  const requestId = err.extra.request_id;
  const message = typeof requestId === 'string' ? `${err.message} (request id ${requestId})` : err.message;
  res.status(err.status).json(body(message, typeOf(err.status), null, err.errorType));
}

/** `['body', 'messages', '0', 'role']` → `messages[0].role`; a header or query parameter by its name. */
export function paramOf(loc: readonly string[]): string | null {
  const parts = loc.slice(1);
  if (parts.length === 0) return null;
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

const body = (message: string, type: string, param: string | null, code: string | null): OpenAIErrorBody => ({
  error: { message, type, param, code },
});
