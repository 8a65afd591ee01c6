import { describe, expect, test } from 'vitest';
import { fakeFetch, json } from '../test/fake-fetch.ts';
import { authorizationHeader } from './auth.ts';
import { createClient } from './create-client.ts';

const baseUrl = 'http://weft.test';
const decodeBasic = (header: string | null) => Buffer.from(header!.replace(/^Basic /, ''), 'base64').toString('utf8');

describe('Basic credentials', () => {
  test('send base64 of "api:<key>" by default, as Weave SDKs do', async () => {
    const server = fakeFetch(() => json({ min_required_weave_python_version: '0.0.1' }));
    const client = createClient({ baseUrl, auth: { scheme: 'basic', apiKey: 'k-123' }, fetch: server.fetch });

    await client.GET('/server_info');

    const header = server.only().headers.get('Authorization');
    expect(header).toBe(`Basic ${Buffer.from('api:k-123').toString('base64')}`);
    expect(decodeBasic(header)).toBe('api:k-123');
  });

  test('use the given username, and keep colons of the key in the password', async () => {
    const server = fakeFetch(() => json({ min_required_weave_python_version: '0.0.1' }));
    const client = createClient({ baseUrl, auth: { scheme: 'basic', apiKey: 'a:b', username: 'alice' }, fetch: server.fetch });

    await client.GET('/server_info');

    expect(decodeBasic(server.only().headers.get('Authorization'))).toBe('alice:a:b');
  });

  test('encode non-ASCII as UTF-8 (RFC 7617)', () => {
    const header = authorizationHeader({ scheme: 'basic', apiKey: 'clé', username: 'zoë' });
    expect(decodeBasic(header)).toBe('zoë:clé');
  });
});

describe('Bearer credentials', () => {
  test('send "Bearer <key>"', async () => {
    const model = { id: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', entity: 'acme', project: 'p', name: 'n', base_model: 'b', run_id: null };
    const server = fakeFetch(() => json(model));
    const client = createClient({ baseUrl, auth: { scheme: 'bearer', apiKey: 'k-123' }, fetch: server.fetch });

    await client.GET('/v1/preview/models/{model_id}', { params: { path: { model_id: model.id } } });

    expect(server.only().headers.get('Authorization')).toBe('Bearer k-123');
  });
});

describe('without credentials', () => {
  test('no Authorization header is sent', async () => {
    const server = fakeFetch(() => json({ status: 'ok' }));
    const client = createClient({ baseUrl, fetch: server.fetch });

    await client.GET('/health');

    expect(server.only().headers.has('Authorization')).toBe(false);
  });
});

test('an Authorization header given to one call wins over the configured credentials', async () => {
  const server = fakeFetch(() => json({ min_required_weave_python_version: '0.0.1' }));
  const client = createClient({ baseUrl, auth: { scheme: 'basic', apiKey: 'k' }, fetch: server.fetch });

  await client.GET('/server_info', { headers: { Authorization: 'Bearer other' } });

  expect(server.only().headers.get('Authorization')).toBe('Bearer other');
});

test('raw uses the same credentials', async () => {
  const server = fakeFetch(() => json({ min_required_weave_python_version: '0.0.1' }));
  const client = createClient({ baseUrl, auth: { scheme: 'bearer', apiKey: 'k' }, fetch: server.fetch });

  await client.raw.GET('/server_info');

  expect(server.only().headers.get('Authorization')).toBe('Bearer k');
});
