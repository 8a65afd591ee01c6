// What the relay does with errors besides raising them (their constructors are in
// openai-errors.ts): the in-band event that ends a stream, and keeping keys out of messages.
import type { RouterErrorBody } from './types.ts';

export { clientGone, streamFailed, upstreamRateLimited, upstreamRejected, upstreamTimeout, upstreamUnavailable } from './openai-errors.ts';

/** The in-band SSE payload of an error: OpenAI's `{error:{message,type,param,code}}`. */
export const errorEvent = (body: RouterErrorBody): string =>
  JSON.stringify({ error: { message: body.message, type: body.type, param: body.param, code: body.code } });

/** Replaces every occurrence of the secrets in a text an upstream wrote (its error message may echo the key). */
export const redact = (text: string, secrets: readonly string[]): string =>
  secrets.reduce((t, s) => (s.length >= 4 ? t.split(s).join('[redacted]') : t), text);
