// Credentials the client sends on every request, as the two security schemes of the spec expect.
import type { Middleware } from 'openapi-fetch';

/**
 * `basic`: the trace-store operations (Weave SDKs send `api:<key>`; the key is the password).
 * `bearer`: the trajectory operations (ART sends `Bearer <key>`).
 */
export type ClientAuth = { scheme: 'basic'; apiKey: string; username?: string } | { scheme: 'bearer'; apiKey: string };

/** The username Weave SDKs put in front of the key; the server ignores unknown names. */
export const DEFAULT_BASIC_USERNAME = 'api';

/** The value of the `Authorization` header for these credentials. */
export function authorizationHeader(auth: ClientAuth): string {
  if (auth.scheme === 'bearer') return `Bearer ${auth.apiKey}`;
  return `Basic ${base64Utf8(`${auth.username ?? DEFAULT_BASIC_USERNAME}:${auth.apiKey}`)}`;
}

/**
 * Adds the header unless the request already carries one, so a single call can still send other
 * credentials (the contract suite sends malformed ones on purpose).
 */
export function authMiddleware(auth: ClientAuth): Middleware {
  const value = authorizationHeader(auth);
  return {
    onRequest({ request }) {
      if (!request.headers.has('Authorization')) request.headers.set('Authorization', value);
      return request;
    },
  };
}

// RFC 7617 §2.1 recommends UTF-8 for user-id and password; btoa alone only takes Latin-1, and
// Buffer is not there in browsers, where this client also runs (against the mock).
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
