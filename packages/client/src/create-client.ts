// The typed Weft client: openapi-fetch over the generated `paths`, with credentials added by a
// middleware, methods that throw WeftApiError on non-2xx, and helpers for the non-JSON operations.
import createFetchClient, { type HeadersOptions } from 'openapi-fetch';
import type { paths } from '@weft/types';
import { authMiddleware, type ClientAuth } from './auth.ts';
import { decodeBody } from './decode-body.ts';
import { operationHelpers, type OperationHelpers } from './operation-helpers.ts';
import type { HttpMethod, RawClient, TypedMethod } from './typed-methods.ts';
import { WeftApiError } from './weft-api-error.ts';

export interface WeftClientOptions {
  /** Root URL of the server or the mock, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Credentials sent on every request; none for the anonymous operations (or to test 401s). */
  auth?: ClientAuth;
  /** The fetch to use (tests pass their own); defaults to the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent on every request (e.g. Prism's `Prefer`). */
  headers?: HeadersOptions;
}

/**
 * GET/POST/PUT/DELETE resolve to the 2xx body and reject with WeftApiError otherwise; the helpers
 * (see OperationHelpers) do the same for the operations that are not plain JSON.
 */
export interface WeftClient extends OperationHelpers {
  GET: TypedMethod<'get'>;
  POST: TypedMethod<'post'>;
  PUT: TypedMethod<'put'>;
  DELETE: TypedMethod<'delete'>;
  /** The openapi-fetch client underneath (same credentials): answers `{data, error, response}`, never throws on HTTP errors. */
  raw: RawClient;
}

export function createClient(options: WeftClientOptions): WeftClient {
  const raw = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  if (options.auth) raw.use(authMiddleware(options.auth));

  const POST = throwing<'post'>(raw, 'POST');
  return {
    GET: throwing<'get'>(raw, 'GET'),
    POST,
    PUT: throwing<'put'>(raw, 'PUT'),
    DELETE: throwing<'delete'>(raw, 'DELETE'),
    ...operationHelpers(POST),
    raw,
  };
}

type UntypedCall = (url: string, init: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

function throwing<M extends HttpMethod>(raw: RawClient, method: Uppercase<M>): TypedMethod<M> {
  const call = raw[method] as unknown as UntypedCall;
  const typed = async (url: string, init: Record<string, unknown> = {}) => {
    // openapi-fetch would JSON.parse every 2xx body, which turns a one-line JSON Lines answer
    // into an object and fails on two lines or on bytes. Reading text and decoding by Content-Type
    // keeps the result what the spec types it as. A caller's own parseAs wins.
    const callerParseAs = init.parseAs;
    const { data, error, response } = await call(url, { ...init, parseAs: callerParseAs ?? 'text' });
    if (!response.ok) throw new WeftApiError(`${method} ${url}`, response.status, error, response);
    return callerParseAs === undefined ? decodeBody(data as string | undefined, response) : data;
  };
  return typed as unknown as TypedMethod<M>;
}
