// The catalogue of errors the domain raises. Each has a stable `error_type` (what clients match
// on) and an HTTP status; the HTTP layer turns any WeftError into `{reason, error_type, ...extra}`.
// Anything that is not a WeftError is a bug and answers 500 without details.

export class WeftError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 501 | 503,
    readonly errorType: string,
    message: string,
    /** Extra fields merged into the error body (e.g. `deleted_at`). */
    readonly extra: Readonly<Record<string, unknown>> = {},
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

/** An operation a known client calls that Weft deliberately does not offer (the reason says what to do instead). */
export const notImplemented = (reason: string) => new WeftError(501, 'NotImplemented', reason);

/**
 * A value the schema allows but a rule of the data refuses, answered like a schema problem: 422
 * with the seed's `{detail:[{loc,msg,type}]}` body.
 */
export class WeftValidationError extends WeftError {
  constructor(readonly detail: ReadonlyArray<{ loc: string[]; msg: string; type: string }>) {
    super(422, 'ValidationError', detail[0]?.msg ?? 'invalid value');
  }

  override toBody(): Record<string, unknown> {
    return { detail: this.detail };
  }
}

export const invalidField = (loc: string[], msg: string, type = 'value_error') => new WeftValidationError([{ loc, msg, type }]);

export const isWeftError = (e: unknown): e is WeftError => e instanceof WeftError;
