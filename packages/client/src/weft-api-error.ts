// What the throwing methods of the client reject with when the answer is not 2xx.
import type { ErrorReason, ValidationError } from '@weft/types';

/** The two error bodies of the API: `{reason, error_type}` and, for 422, `{detail:[…]}`. */
export type WeftErrorBody = ErrorReason | ValidationError;

export class WeftApiError<Body = WeftErrorBody> extends Error {
  override readonly name = 'WeftApiError';

  constructor(
    /** HTTP method and path template of the call, e.g. `POST /obj/read`. */
    readonly operation: string,
    readonly status: number,
    /**
     * The error body, parsed as JSON when it is JSON. Typed as the operation's documented error
     * bodies; a proxy in between may still answer something else (text, or undefined when empty).
     */
    readonly body: Body,
    /** The answer itself; its body has been read already. */
    readonly response: Response,
  ) {
    super(`${operation} answered ${status}${describe(body)}`);
  }

  /** True for the 422 answer of a request that breaks the schema. */
  isValidationError(): this is WeftApiError<ValidationError> {
    return this.status === 422 && isValidationErrorBody(this.body);
  }
}

export function isWeftApiError(error: unknown): error is WeftApiError {
  return error instanceof WeftApiError;
}

function isValidationErrorBody(body: unknown): body is ValidationError {
  return typeof body === 'object' && body !== null && Array.isArray((body as { detail?: unknown }).detail);
}

// The message carries the server's reason so a failing test or log line says why at a glance.
function describe(body: unknown): string {
  if (isValidationErrorBody(body)) {
    const items = body.detail.map((d) => `${(d.loc ?? []).join('.')}: ${d.msg}`);
    return items.length ? `: ${items.join('; ')}` : '';
  }
  if (typeof body === 'object' && body !== null && typeof (body as { reason?: unknown }).reason === 'string') {
    return `: ${(body as ErrorReason).reason}`;
  }
  if (typeof body === 'string' && body !== '') return `: ${body.slice(0, 200)}`;
  return '';
}
