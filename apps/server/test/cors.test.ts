// CORS over real HTTP: every operation of the spec answers a preflight from a listed origin, an
// origin not listed gets no CORS header, `*` never comes with credentials, and without
// CORS_ORIGINS nothing changes (a preflight is a 405, no header added).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../src/http/spec.ts';
import { describeEachDatabase, startTestServer, type TestServer } from './test-server.ts';

const APP = 'https://app.example.com';
const DEV = 'http://localhost:5173';
const OTHER = 'https://evil.example.net';

/** A concrete path for an operation: each path parameter becomes a plain segment. */
const pathOf = (template: string) => template.replace(/\{[^}]+\}/g, 'x1');

const preflight = (url: string, path: string, origin: string, method: string, headers = 'authorization,content-type') =>
  fetch(`${url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const corsHeaderNames = (res: Response) => [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));
const list = (value: string | null) => (value ?? '').split(',').map((v) => v.trim().toLowerCase());

describeEachDatabase(
  'CORS with listed origins',
  (getServer) => {
    it('answers the preflight of every operation of the spec for a listed origin', async () => {
      const { url } = getServer();
      expect(operations.length).toBeGreaterThan(20);
      for (const op of operations) {
        const method = op.method.toUpperCase();
        const res = await preflight(url, pathOf(op.path), DEV, method);
        const where = `${method} ${op.path}`;
        expect(res.status, where).toBe(204);
        expect(res.headers.get('access-control-allow-origin'), where).toBe(DEV);
        expect(res.headers.get('access-control-allow-credentials'), where).toBe('true');
        expect(list(res.headers.get('access-control-allow-methods')), where).toContain(method.toLowerCase());
        expect(list(res.headers.get('access-control-allow-headers')), where).toEqual(
          expect.arrayContaining(['authorization', 'content-type', 'x-request-id']),
        );
        expect(list(res.headers.get('vary')), where).toContain('origin');
      }
    });

    it('allows the header parameters the spec declares (the router gateway headers)', async () => {
      const res = await preflight(
        getServer().url,
        '/inference/router/gateway/chat/completions',
        APP,
        'POST',
        'authorization,content-type,x-weft-trace-id,openai-project',
      );
      expect(res.status).toBe(204);
      expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
        expect.arrayContaining(['x-weft-trace-id', 'openai-project', 'traceparent']),
      );
    });

    it('gives an origin not listed no CORS header, on a preflight or a request', async () => {
      const { url, aliceKey } = getServer();
      const refused = await preflight(url, '/obj/create', OTHER, 'POST');
      expect(refused.status).toBe(405);
      expect(corsHeaderNames(refused)).toEqual([]);
      expect(list(refused.headers.get('vary'))).toContain('origin');
      const answer = await fetch(`${url}/server_info`, {
        headers: { origin: OTHER, authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}` },
      });
      expect(answer.status).toBe(200);
      expect(corsHeaderNames(answer)).toEqual([]);
      expect(list(answer.headers.get('vary'))).toContain('origin');
      // A trailing slash or another scheme is another origin.
      expect(corsHeaderNames(await preflight(url, '/obj/create', `${APP}/`, 'POST'))).toEqual([]);
      expect(corsHeaderNames(await preflight(url, '/obj/create', APP.replace('https', 'http'), 'POST'))).toEqual([]);
    });

    it('lets a listed origin read the answer, with credentials and the headers it needs to see', async () => {
      const { url, aliceKey } = getServer();
      const res = await fetch(`${url}/server_info`, {
        headers: { origin: APP, authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(list(res.headers.get('access-control-expose-headers'))).toEqual(
        expect.arrayContaining(['x-request-id', 'retry-after', 'www-authenticate']),
      );
      // Errors too: a browser app must be able to read why it was refused.
      const unauthorized = await fetch(`${url}/server_info`, { headers: { origin: APP } });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('access-control-allow-origin')).toBe(APP);
    });

    it('answers no preflight for a method no operation serves there, nor for a path with no operation', async () => {
      const { url } = getServer();
      const wrongMethod = await preflight(url, '/server_info', APP, 'DELETE');
      expect(wrongMethod.status).toBe(405);
      expect(corsHeaderNames(wrongMethod)).toEqual([]);
      const nowhere = await preflight(url, '/no/such/operation', APP, 'POST');
      expect(corsHeaderNames(nowhere)).toEqual([]);
      // A plain OPTIONS (no Access-Control-Request-Method) is not a preflight.
      const plain = await fetch(`${url}/server_info`, { method: 'OPTIONS', headers: { origin: APP } });
      expect(plain.status).toBe(405);
      expect(corsHeaderNames(plain)).toEqual([]);
    });
  },
  { CORS_ORIGINS: `${APP}, ${DEV}` },
);

describe('CORS with any origin', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { CORS_ORIGINS: '*' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers `*` and never allows credentials with it', async () => {
    const res = await preflight(server.url, '/calls/stream_query', OTHER, 'POST');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const answer = await fetch(`${server.url}/health`, { headers: { origin: OTHER } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('CORS unset (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('adds no header and leaves a preflight the 405 it was', async () => {
    const res = await preflight(server.url, '/obj/create', APP, 'POST');
    expect(res.status).toBe(405);
    expect(corsHeaderNames(res)).toEqual([]);
    const answer = await fetch(`${server.url}/health`, { headers: { origin: APP } });
    expect(corsHeaderNames(answer)).toEqual([]);
    expect(answer.headers.get('vary')).toBeNull();
  });
});
