// The body module's refusals, in the shape of body-parser's (http-errors) errors, so the one error
// handler (http/error-handler.ts) answers them like any other: 415, 413, 400, 422 json_invalid.
import type { ValidationDetail } from '@weft/core';

export interface BodyError extends Error {
  status: number;
  type: string;
  expose: true;
}

function bodyError(status: number, type: string, message: string): BodyError {
  return Object.assign(new Error(message), { status, type, expose: true as const });
}

export const unsupportedMediaType = (message: string) => bodyError(415, 'media.unsupported', message);
export const unsupportedCharset = (charset: string) =>
  bodyError(415, 'charset.unsupported', `Unsupported charset "${charset.toUpperCase()}"; JSON bodies are UTF-8`);
export const unsupportedEncoding = (encoding: string) =>
  bodyError(415, 'encoding.unsupported', `Unsupported content encoding "${encoding}"; use gzip, deflate, br or identity`);
export const tooLarge = () => bodyError(413, 'entity.too.large', 'Request too large');
export const corruptBody = (encoding: string) => bodyError(400, 'entity.corrupt', `The ${encoding} body could not be decompressed`);
export const aborted = () => bodyError(400, 'request.aborted', 'The request was aborted before its body was complete');
export const malformedJson = (message: string) => bodyError(400, 'entity.parse.failed', message);

/** A 422 with the seed's `{detail:[{loc,msg,type}]}` body, for problems found while reading. */
export function unprocessable(detail: ValidationDetail[]): BodyError & { detail: ValidationDetail[] } {
  return Object.assign(bodyError(422, 'entity.unprocessable', detail[0]?.msg ?? 'invalid body'), { detail });
}
