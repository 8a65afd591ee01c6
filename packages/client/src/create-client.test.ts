import { describe, expect, test } from 'vitest';
import type { ErrorReason, ObjsQueryRes, ValidationError } from '@weft/types';
import { fakeFetch, json } from '../test/fake-fetch.ts';
import { createClient } from './create-client.ts';
import { WeftApiError, isWeftApiError } from './weft-api-error.ts';

const baseUrl = 'http://weft.test/';
const auth = { scheme: 'basic', apiKey: 'k' } as const;
const project_id = 'acme/support-bot';

/** Runs `call` and returns what it rejected with; fails if it resolved. */
async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    (value) => expect.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

describe('success', () => {
  test('resolves to the parsed 2xx body and sends the request the spec describes', async () => {
    const answer: ObjsQueryRes = { objs: [] };
    const server = fakeFetch(() => json(answer));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    const data = await client.POST('/objs/query', { body: { project_id, limit: 5 } });

    expect(data).toEqual(answer);
    const request = server.only();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('http://weft.test/objs/query');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(await request.json()).toEqual({ project_id, limit: 5 });
  });

  test('fills path parameters and the query string', async () => {
    const server = fakeFetch(() => json({ queue: {} }));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    await client.DELETE('/annotation_queues/{queue_id}', { params: { path: { queue_id: 'q 1' }, query: { project_id } } });

    const request = server.only();
    expect(request.method).toBe('DELETE');
    expect(request.url).toBe('http://weft.test/annotation_queues/q%201?project_id=acme%2Fsupport-bot');
  });

  test('resolves to undefined for an empty 2xx body', async () => {
    const server = fakeFetch(() => new Response(null, { status: 200 }));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    await expect(
      client.POST('/call/end', { body: { end: { project_id, id: 'c', ended_at: '2025-06-03T09:41:28.907Z', summary: {} } } }),
    ).resolves.toBeUndefined();
  });

  test('a 2xx body that is not JSON stays text, as the spec types it', async () => {
    const server = fakeFetch(() => new Response('hello world\n', { headers: { 'Content-Type': 'application/octet-stream' } }));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    expect(await client.POST('/file/content', { body: { project_id, digest: 'd' } })).toBe('hello world\n');
  });

  test('sends the configured headers on every request', async () => {
    const server = fakeFetch(() => json({ status: 'ok' }));
    const client = createClient({ baseUrl, fetch: server.fetch, headers: { Prefer: 'code=200' } });

    await client.GET('/health');

    expect(server.only().headers.get('Prefer')).toBe('code=200');
  });
});

describe('errors', () => {
  test('a 404 rejects with WeftApiError carrying status, body and response', async () => {
    const body: ErrorReason = { reason: 'Not found', error_type: 'NotFoundError' };
    const server = fakeFetch(() => json(body, 404));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    const error = await rejection(client.POST('/obj/read', { body: { project_id, object_id: 'nope', digest: 'latest' } }));

    expect(error).toBeInstanceOf(WeftApiError);
    expect(isWeftApiError(error)).toBe(true);
    const apiError = error as WeftApiError;
    expect(apiError.status).toBe(404);
    expect(apiError.body).toEqual(body);
    expect(apiError.response.status).toBe(404);
    expect(apiError.operation).toBe('POST /obj/read');
    expect(apiError.message).toBe('POST /obj/read answered 404: Not found');
    expect(apiError.isValidationError()).toBe(false);
  });

  test('a 422 rejects with the validation details', async () => {
    const body: ValidationError = { detail: [{ loc: ['body', 'limit'], msg: 'must be integer,null', type: 'type' }] };
    const server = fakeFetch(() => json(body, 422));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    const error = (await rejection(client.POST('/objs/query', { body: { project_id } }))) as WeftApiError;

    expect(error).toBeInstanceOf(WeftApiError);
    expect(error.status).toBe(422);
    expect(error.body).toEqual(body);
    expect(error.isValidationError()).toBe(true);
    expect(error.message).toBe('POST /objs/query answered 422: body.limit: must be integer,null');
  });

  test('a non-JSON error body is kept as text', async () => {
    const server = fakeFetch(() => new Response('Bad gateway', { status: 502, headers: { 'Content-Type': 'text/plain' } }));
    const client = createClient({ baseUrl, fetch: server.fetch });

    const error = (await rejection(client.GET('/health'))) as WeftApiError;

    expect(error.status).toBe(502);
    expect(error.body).toBe('Bad gateway');
  });

  test('raw does not throw and exposes status and headers', async () => {
    const server = fakeFetch(() => json({ reason: 'Missing credentials' }, 401, { 'WWW-Authenticate': 'Basic realm="weft"' }));
    const client = createClient({ baseUrl, fetch: server.fetch });

    const { data, error, response } = await client.raw.GET('/server_info');

    expect(data).toBeUndefined();
    expect(error).toEqual({ reason: 'Missing credentials' });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toBe('Basic realm="weft"');
  });

  test('a network failure rejects with the fetch error, not a WeftApiError', async () => {
    const client = createClient({ baseUrl, fetch: () => Promise.reject(new TypeError('fetch failed')) });

    const error = await rejection(client.GET('/health'));

    expect(error).toBeInstanceOf(TypeError);
  });
});
