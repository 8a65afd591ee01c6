import type { AuthScheme } from './auth-types.ts';
import { parseAuthorizationHeader } from './authorization-header.ts';

/**
 * Which of an operation's schemes a request is checked against: the one its Authorization header
 * names when the operation offers it (the router takes the `openai` client's Bearer and a Weave
 * SDK's Basic), else the first, whose name the 401's challenge then carries.
 */
export function schemeFor(schemes: readonly AuthScheme[], authorization: string | undefined): AuthScheme | undefined {
  if (schemes.length < 2 || authorization === undefined) return schemes[0];
  const named = parseAuthorizationHeader(authorization)?.scheme;
  return schemes.find((s) => s === named) ?? schemes[0];
}
