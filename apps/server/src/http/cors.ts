// CORS for browser apps on other origins (CORS_ORIGINS), with the maintained `cors` middleware.
// Off when no origin is set: no header is added and a preflight is the 405 it always was.
//
// A listed origin is reflected with credentials allowed; `*` allows any origin without credentials
// (the CORS rule: a wildcard never comes with credentials). A preflight is answered only for a
// method an operation of the spec serves at that path, so it says what the request will meet. An
// origin not listed gets no CORS header at all (the browser then refuses to hand the answer over),
// only `Vary: Origin`, so a cache never serves one origin's answer to another.
import type { RequestHandler } from 'express';
import cors from 'cors';
import { createOperationMatcher, type SpecOperation } from '@weft/types/spec';

/**
 * Request headers a browser client may send besides the spec's header parameters: credentials,
 * body type and encoding, our request id, W3C trace context, and what the OpenAI SDK adds.
 */
const CLIENT_HEADERS = [
  'Authorization',
  'Content-Type',
  'Content-Encoding',
  'X-Request-Id',
  'traceparent',
  'tracestate',
  'OpenAI-Organization',
  'OpenAI-Beta',
  'X-Stainless-Arch',
  'X-Stainless-Helper-Method',
  'X-Stainless-Lang',
  'X-Stainless-OS',
  'X-Stainless-Package-Version',
  'X-Stainless-Retry-Count',
  'X-Stainless-Runtime',
  'X-Stainless-Runtime-Version',
  'X-Stainless-Timeout',
];

/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_SEC = 600;

const unique = (names: string[]) => [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];

/** Header parameters of the spec's operations, and the headers its answers document. */
export function corsHeaders(operations: readonly SpecOperation[]): { allowed: string[]; exposed: string[] } {
  const params = operations.flatMap((op) => op.parameters.filter((p) => p.in === 'header').map((p) => p.name));
  const answers = operations.flatMap((op) => Object.values(op.responses).flatMap((r) => Object.keys(r.response.headers ?? {})));
  return { allowed: unique([...CLIENT_HEADERS, ...params]), exposed: unique(['X-Request-Id', ...answers]) };
}

/** The CORS middleware for these origins; undefined when none is set. */
export function corsPolicy(origins: readonly string[], operations: readonly SpecOperation[]): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  const anyOrigin = origins.includes('*');
  const listed = new Set(origins);
  const matcher = createOperationMatcher(operations.map((op) => ({ method: op.method, path: op.path, route: op })));
  const { allowed, exposed } = corsHeaders(operations);
  const base = { allowedHeaders: allowed, exposedHeaders: exposed, maxAge: PREFLIGHT_MAX_AGE_SEC, credentials: !anyOrigin };

  return (req, res, next) => {
    if (!anyOrigin) res.vary('Origin');
    const origin = req.headers.origin;
    if (origin === undefined || (!anyOrigin && !listed.has(origin))) return next();
    const requested = req.method === 'OPTIONS' ? req.headers['access-control-request-method'] : undefined;
    let methods: string[] | undefined;
    if (requested !== undefined) {
      const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
      // No operation serves this method here: not a preflight we answer (the dispatcher's 404/405).
      if (matcher.match(requested, path).kind !== 'operation') return next();
      const atPath = matcher.match('OPTIONS', path);
      methods = unique([requested.toUpperCase(), ...(atPath.kind === 'method-not-allowed' ? atPath.allowed : [])]);
    } else if (req.method === 'OPTIONS') return next(); // a plain OPTIONS, not a preflight
    cors({ ...base, origin: anyOrigin ? '*' : origin, ...(methods ? { methods } : {}) })(req, res, next);
  };
}
