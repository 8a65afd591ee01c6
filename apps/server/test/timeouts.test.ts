// Connections cannot pile up: one that sends nothing is closed after HEADERS_TIMEOUT, connections
// over MAX_CONNECTIONS are refused, and a draining server answers new requests 503 with
// `Connection: close` while /health says `draining`.
import { connect, type Socket } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { lifecycleGuard } from '../src/http/lifecycle.ts';
import { requestsInFlight } from './in-flight.ts';
import { startTestServer, type TestServer } from './test-server.ts';

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}
/** Milliseconds until the server closes `socket`; fails after 10 s with the socket's state. */
const closed = (socket: Socket) =>
  new Promise<number>((resolve, reject) => {
    const t0 = Date.now();
    if (socket.destroyed) return resolve(0);
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `still open after 10 s: ${JSON.stringify({ state: socket.readyState, read: socket.bytesRead, port: socket.localPort })}`,
          ),
        ),
      10_000,
    );
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - t0);
    });
  });

describe('silent connections', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { HEADERS_TIMEOUT: '400ms' });
  });
  afterAll(() => server.close());

  it('closes a connection that never sends a byte after HEADERS_TIMEOUT', async () => {
    const sockets = await Promise.all([open(server.url), open(server.url)]);
    const waited = await Promise.all(sockets.map(closed));
    for (const ms of waited) expect(ms).toBeGreaterThanOrEqual(300);
    for (const ms of waited) expect(ms).toBeLessThan(3_000);
  });
});

describe('MAX_CONNECTIONS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { HEADERS_TIMEOUT: '20s', MAX_CONNECTIONS: '3' });
  });
  afterAll(() => server.close());

  it('refuses connections over the limit and serves again once they close', async () => {
    const held = await Promise.all([open(server.url), open(server.url), open(server.url)]);
    // Node accepts and at once destroys a connection over the limit (long before HEADERS_TIMEOUT).
    const extra = await open(server.url);
    expect(await closed(extra)).toBeLessThan(1_000);
    expect(held.every((s) => !s.destroyed)).toBe(true);
    for (const s of held) s.destroy();
    // Served again once the server has seen them close (a connection still over the limit is destroyed: no status).
    await expect
      .poll(
        () =>
          fetch(`${server.url}/health`).then(
            (r) => r.status,
            () => undefined,
          ),
        { timeout: 5_000 },
      )
      .toBe(200);
  });
});

describe('draining', () => {
  it('answers new requests 503 with Connection: close, but lets /health say draining', async () => {
    const app = express();
    app.use(lifecycleGuard({ phase: 'draining' }, (path) => path === '/health'));
    app.get('/health', (_req, res) => void res.status(503).json({ status: 'draining' }));
    app.post('/obj/read', (_req, res) => void res.json({}));
    const listener = app.listen(0);
    await new Promise((resolve) => listener.once('listening', resolve));
    const base = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
    try {
      const refused = await fetch(`${base}/obj/read`, { method: 'POST' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('connection')).toBe('close');
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({ reason: expect.stringContaining('shutting down'), error_type: 'ServiceUnavailable' });
      const health = await fetch(`${base}/health`);
      expect([health.status, health.headers.get('connection'), await health.json()]).toEqual([503, 'close', { status: 'draining' }]);
    } finally {
      listener.close();
    }
  });
});

describe('draining, in the app', () => {
  it('finishes the request in flight, then answers the next on the same connection 503 with Connection: close', async () => {
    const server = await startTestServer('sqlite', { SHUTDOWN_TIMEOUT: '5s' });
    const socket = await open(server.url);
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const auth = `Basic ${Buffer.from(`api:${server.aliceKey}`).toString('base64')}`;
    const body = '{"project_id":"acme/drain"}';
    socket.write(
      `POST /objs/query HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n{`,
    );
    // The first request is being served (its headers read; the scrape itself is the other one).
    await expect.poll(() => requestsInFlight(server.url), { timeout: 5_000 }).toBeGreaterThan(1);
    const closing = server.close(); // draining starts while the first request is still being sent
    // Draining: /health answers 503 on a kept-alive connection, or a new connection is refused.
    await expect
      .poll(
        () =>
          fetch(`${server.url}/health`).then(
            (r) => r.status,
            () => 'refused',
          ),
        { timeout: 5_000 },
      )
      .not.toBe(200);
    // The rest of the first body, then a second request on the same (pipelined) connection.
    socket.write(`${body.slice(1)}GET /health HTTP/1.1\r\nHost: x\r\n\r\n`);
    await closed(socket);
    await closing;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 503']);
    expect(answers[0]).toContain('{"objs":[]}');
    expect(answers[1]).toMatch(/connection: close/i);
    expect(answers[1]).toContain('"status":"draining"');
  });
});

describe('configuration', () => {
  it('reads durations and refuses nonsense, naming the variable', () => {
    const c = loadConfig({
      HEADERS_TIMEOUT: '2s',
      REQUEST_TIMEOUT: '1m',
      IDLE_TIMEOUT: '500ms',
      SHUTDOWN_TIMEOUT: '45000',
      MAX_CONNECTIONS: '50',
    });
    expect(c).toMatchObject({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 60_000,
      idleTimeoutMs: 500,
      shutdownTimeoutMs: 45_000,
      maxConnections: 50,
    });
    expect(loadConfig({})).toMatchObject({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
      idleTimeoutMs: 65_000,
      shutdownTimeoutMs: 30_000,
    });
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT: 'soon', MAX_CONNECTIONS: '0' })).toThrow(
      /SHUTDOWN_TIMEOUT[\s\S]*MAX_CONNECTIONS|MAX_CONNECTIONS[\s\S]*SHUTDOWN_TIMEOUT/,
    );
  });
});

describe('REQUEST_TIMEOUT: the deadline of a whole request', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { REQUEST_TIMEOUT: '1500ms', HEADERS_TIMEOUT: '1s' });
  });
  afterAll(() => server.close());

  it('answers a body still arriving at the deadline 408, closes the connection, and leaves the server serving', async () => {
    const socket = await open(server.url);
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const auth = Buffer.from(`api:${server.aliceKey}`).toString('base64');
    const t0 = Date.now();
    socket.write(
      `POST /obj/create HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"obj":`,
    );
    const ms = await closed(socket);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(received).toContain('"error_type":"RequestTimeout"');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(4_000);
    const after = await fetch(`${server.url}/objs/query`, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
      body: '{"project_id":"acme/deadline"}',
    });
    expect(after.status).toBe(200);
  });
});
