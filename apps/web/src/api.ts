// Every request of the app goes through the typed client (@weft/client, openapi-fetch) and its
// TanStack Query hooks (openapi-react-query): no hand-written fetch, no second copy of a type.
import { authorizationHeader, createClient, isWeftApiError, type WeftClient } from '@weft/client';
import createQueryHooks, { type OpenapiQueryClient } from 'openapi-react-query';
import type { paths } from '@weft/types';

export interface Api {
  client: WeftClient;
  $api: OpenapiQueryClient<paths>;
}

export function createApi(apiKey: string): Api {
  // The app is served by the API's own origin (and proxied to it by Vite in development).
  // credentials 'omit': the key travels in the Authorization header only (no cookies), and a 401's
  // `WWW-Authenticate: Basic` then never makes the browser pop up its own password dialog.
  const client = createClient({
    baseUrl: window.location.origin,
    fetch: (request) => fetch(new Request(request, { credentials: 'omit' })),
  });
  const basic = authorizationHeader({ scheme: 'basic', apiKey });
  const bearer = authorizationHeader({ scheme: 'bearer', apiKey });
  client.raw.use({
    onRequest({ request }) {
      // As the spec's security schemes: ART's operations (under /v1/) and the router's OpenAI wire
      // (under /inference/router/, Bearer first, as OpenAI's clients send it) take Bearer, the rest Basic.
      const path = new URL(request.url).pathname;
      request.headers.set('Authorization', path.startsWith('/v1/') || path.startsWith('/inference/router/') ? bearer : basic);
      return request;
    },
  });
  return { client, $api: createQueryHooks(client.raw) };
}

/** The error body openapi-react-query throws for a non-2xx answer: `{reason, error_type}` or 422's `{detail}`. */
export interface ApiErrorBody {
  reason?: string;
  error_type?: string;
  detail?: Array<{ loc: string[]; msg: string }>;
}

export function errorTypeOf(error: unknown): string | undefined {
  const body = isWeftApiError(error) ? error.body : error;
  return typeof body === 'object' && body !== null ? (body as ApiErrorBody).error_type : undefined;
}
