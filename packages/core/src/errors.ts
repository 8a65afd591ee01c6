// The catalogue of errors the domain raises. Each has a stable `error_type` (what clients match
// on) and an HTTP status; the HTTP layer turns any WeftError into `{reason, error_type, ...extra}`.
// Anything that is not a WeftError is a bug and answers 500 without details.

/**
 * Every `error_type` the service answers with. A WeftError takes only these, so a name cannot be
 * made up at a call site (a client could not know it), nor one error get two names: a 404 is
 * `NotFoundError`, as the spec's NotFound answer says, whether the resource or the route is missing.
 */
export const ERROR_TYPES = [
  'BadRequest',
  'Conflict',
  'DatabaseUnavailable',
  'DeadlineExceeded',
  'DigestMismatchError',
  'Forbidden',
  'InsufficientStorage',
  'InternalError',
  'InvalidRequest',
  'MethodNotAllowed',
  'NotFoundError',
  'NotImplemented',
  'ObjectDeletedError',
  'RateLimited',
  'RequestTimeout',
  'RequestTooLarge',
  'ServiceUnavailable',
  'Unauthorized',
  'UnsupportedMediaType',
  'ValidationError',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/**
 * The `type` of a 422 `{detail:[{loc,msg,type}]}` item that Weft writes itself (FastAPI's names
 * where one fits). Items from the schema validator carry its codes (http/validation-error.ts).
 */
export const VALIDATION_TYPES = [
  'datetime_parsing',
  'finite_number',
  'greater_than_equal',
  'json_invalid',
  'missing',
  'number_out_of_range',
  'number_too_long',
  'pattern',
  'too_deep',
  'value_error',
] as const;
export type ValidationType = (typeof VALIDATION_TYPES)[number];

export interface ValidationDetail {
  loc: string[];
  msg: string;
  type: string;
}

/** One item of a 422 body, with a type from the catalogue. */
export const validationDetail = (loc: string[], msg: string, type: ValidationType): ValidationDetail => ({ loc, msg, type });

export class WeftError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 406 | 408 | 409 | 413 | 415 | 422 | 429 | 500 | 501 | 503 | 507,
    readonly errorType: ErrorType,
    message: string,
    /** Extra fields merged into the error body (e.g. `deleted_at`). */
    readonly extra: Readonly<Record<string, unknown>> = {},
    /** Headers of the answer (`Retry-After`, `WWW-Authenticate`, `Allow`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = errorType;
  }

  toBody(): Record<string, unknown> {
    return { reason: this.message, error_type: this.errorType, ...this.extra };
  }
}

/** A rule of the operation is broken (bad sort path, unsupported option, out-of-range index). */
export const invalidRequest = (reason: string) => new WeftError(400, 'InvalidRequest', reason);

export const notFound = (reason: string) => new WeftError(404, 'NotFoundError', reason);

/** The version exists but was soft-deleted; Weave reports when. */
export const objectDeleted = (reason: string, deletedAt: string) =>
  new WeftError(404, 'ObjectDeletedError', reason, { deleted_at: deletedAt });

export const digestMismatch = (expected: string, computed: string) =>
  new WeftError(409, 'DigestMismatchError', `Expected digest ${expected}, computed ${computed}`, {
    expected_digest: expected,
    computed_digest: computed,
  });

export const conflict = (reason: string) => new WeftError(409, 'Conflict', reason);

export const forbidden = (reason: string) => new WeftError(403, 'Forbidden', reason);

export const tooLarge = (reason = 'Request too large') => new WeftError(413, 'RequestTooLarge', reason);

/** Missing or wrong credentials; `challenge` is the scheme the operation expects (`WWW-Authenticate`). */
export const unauthorized = (reason: string, challenge: string) =>
  new WeftError(401, 'Unauthorized', reason, {}, { 'WWW-Authenticate': challenge });

/** No operation at this path: the same 404 as a missing resource, the reason naming the path. */
export const noOperation = (reason: string) => new WeftError(404, 'NotFoundError', reason);

export const methodNotAllowed = (reason: string, allowed: string) => new WeftError(405, 'MethodNotAllowed', reason, {}, { Allow: allowed });

export const unsupportedMediaType = (reason: string) => new WeftError(415, 'UnsupportedMediaType', reason);

/** A 4xx the HTTP layer found that has no entry of its own (a malformed header, say). */
export const badRequest = (status: 400 | 406 | 408 | 413 | 415, reason: string) => new WeftError(status, 'BadRequest', reason);

/** The request's body did not arrive within the request's deadline (REQUEST_TIMEOUT). */
export const requestTimeout = (reason: string) => new WeftError(408, 'RequestTimeout', reason);

export const rateLimited = (reason: string, retryAfterSec: number) =>
  new WeftError(429, 'RateLimited', reason, {}, { 'Retry-After': String(retryAfterSec) });

/** A bug: no details but the request id to quote (its log lines carry the same). */
export const internalError = (requestId: string) => new WeftError(500, 'InternalError', 'Internal server error', { request_id: requestId });

/**
 * The request was not run, or not to its end, and can be retried as it is: the replica is
 * starting or shutting down, or could not keep the request's body.
 */
export const serviceUnavailable = (reason: string, retryAfterSec = 1) =>
  new WeftError(503, 'ServiceUnavailable', reason, {}, { 'Retry-After': String(retryAfterSec) });

/**
 * The database could not be used (refused, restarting, out of connections, frozen, locked by
 * another process); the reason names the cause. Nothing of the request was committed unless the
 * database failed while committing, so a client retries (Weave's writes are idempotent).
 */
export const databaseUnavailable = (reason: string, retryAfterSec = 1) =>
  new WeftError(503, 'DatabaseUnavailable', reason, {}, { 'Retry-After': String(retryAfterSec) });

/** The request's deadline (REQUEST_TIMEOUT) passed before it was answered; its database work was cancelled. */
export const deadlineExceeded = (reason: string) => new WeftError(503, 'DeadlineExceeded', reason, {}, { 'Retry-After': '1' });

/** The database has no room for the write (a full disk): reads still work; nothing was stored. */
export const insufficientStorage = (reason: string) => new WeftError(507, 'InsufficientStorage', reason, {}, { 'Retry-After': '30' });

/** An operation a known client calls that Weft deliberately does not offer (the reason says what to do instead). */
export const notImplemented = (reason: string) => new WeftError(501, 'NotImplemented', reason);

/** A WeftError as a message between threads carries it (structured-cloneable). */
export interface WeftErrorParts {
  status: WeftError['status'];
  errorType: ErrorType;
  message: string;
  extra: Readonly<Record<string, unknown>>;
  headers: Readonly<Record<string, string>>;
}

export const weftErrorParts = (err: WeftError): WeftErrorParts => ({
  status: err.status,
  errorType: err.errorType,
  message: err.message,
  extra: err.extra,
  headers: err.headers,
});

/** The error another thread raised (a mapping thread's 400 for a span that does not decode). */
export const weftErrorOf = (parts: WeftErrorParts) =>
  new WeftError(parts.status, parts.errorType, parts.message, parts.extra, parts.headers);

/**
 * A value the schema allows but a rule of the data refuses, answered like a schema problem: 422
 * with the seed's `{detail:[{loc,msg,type}]}` body.
 */
export class WeftValidationError extends WeftError {
  constructor(readonly detail: readonly ValidationDetail[]) {
    super(422, 'ValidationError', detail[0]?.msg ?? 'invalid value');
  }

  override toBody(): Record<string, unknown> {
    return { detail: this.detail };
  }
}

export const invalidField = (loc: string[], msg: string, type: ValidationType = 'value_error') =>
  new WeftValidationError([validationDetail(loc, msg, type)]);

export const isWeftError = (e: unknown): e is WeftError => e instanceof WeftError;
