/**
 * Parsing of the HTTP `Authorization` header (RFC 7235, RFC 7617 Basic,
 * RFC 6750 Bearer). Pure string handling; no key checks happen here.
 */

export interface AuthorizationHeader {
  /** Lower-cased, because auth-scheme names are case-insensitive (RFC 7235 §2.1). */
  readonly scheme: string;
  /** Everything after the scheme, surrounding whitespace removed; may be empty. */
  readonly credentials: string;
}

/** Splits `<scheme> <credentials>`; undefined when there is no scheme at all. */
export function parseAuthorizationHeader(header: string): AuthorizationHeader | undefined {
  const match = /^\s*([^\s]+)(?:\s+([^]*?))?\s*$/.exec(header);
  if (!match?.[1]) return undefined;
  return { scheme: match[1].toLowerCase(), credentials: match[2] ?? '' };
}

// Standard base64 alphabet (RFC 4648 §4). Padding is optional because some
// clients strip it; Buffer.from itself would silently skip invalid chars.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes Basic credentials into user-id and password; undefined if malformed. */
export function decodeBasicCredentials(credentials: string): { username: string; password: string } | undefined {
  if (credentials === '' || !BASE64.test(credentials) || credentials.replace(/=+$/, '').length % 4 === 1) {
    return undefined;
  }
  let decoded: string;
  try {
    decoded = strictUtf8.decode(Buffer.from(credentials, 'base64'));
  } catch {
    return undefined;
  }
  // The user-id cannot contain a colon, so the first colon splits (RFC 7617 §2);
  // the password (our API key) may contain colons.
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
