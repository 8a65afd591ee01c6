// An answer sent before the body was read (413 past the limit, 401 before the body, 415) closes
// the connection after it, and the client gets that answer, not a reset: a kept-alive client's
// next request on the same pool is answered at once, not after the idle timeout.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

const LIMIT = 64 * 1024;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Sends `size` bytes in 16 kB writes (chunked unless `declared`), through `agent`. */
function upload(url: string, agent: Agent, headers: Record<string, string>, size: number, declared: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/obj/create`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', ...headers, ...(declared ? { 'content-length': String(size) } : {}) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(sent > size ? chunk.subarray(0, chunk.length - (sent - size)) : chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    // The server may answer and close before the whole body went out: that is the point.
    req.on('socket', (socket) => socket.on('error', () => undefined));
    pump();
  });
}

function small(url: string, agent: Agent, key: string): Promise<{ status: number; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/objs/query`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end('{"project_id":"acme/early"}');
  });
}

describeEachDatabase(
  'answers before the body is read',
  (getServer) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    afterAll(() => agent.destroy());
    const auth = () => ({ authorization: `Basic ${Buffer.from(`api:${getServer().aliceKey}`).toString('base64')}` });

    const cases: Array<[string, () => Record<string, string>, number, boolean, number]> = [
      ['413 for a declared length past the limit', auth, LIMIT * 40, true, 413],
      ['413 for a chunked body that outgrows the limit', auth, LIMIT * 40, false, 413],
      ['401 before the body is read', () => ({ authorization: 'Basic d3Jvbmc6a2V5' }), LIMIT * 20, true, 401],
      ['415 for a media type it does not take', () => ({ ...auth(), 'content-type': 'text/csv' }), LIMIT * 20, true, 415],
    ];
    for (const [name, headers, size, declared, status] of cases) {
      it(`${name}: Connection: close, the answer arrives whole, the next request on the pool is answered at once`, async () => {
        const { url, aliceKey } = getServer();
        expect((await small(url, agent, aliceKey)).status).toBe(200); // a kept-alive socket in the pool
        const answer = await upload(url, agent, headers(), size, declared);
        expect(answer.status).toBe(status);
        expect(answer.headers.connection).toBe('close');
        expect(JSON.parse(answer.body)).toMatchObject({ error_type: expect.any(String) as string });
        const next = await small(url, agent, aliceKey);
        expect(next.status).toBe(200);
        expect(next.ms).toBeLessThan(1000);
      });
    }

    it('reads a refused body for a bounded time only: a client that keeps sending is closed', async () => {
      const { url } = getServer();
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.on('error', () => undefined);
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString()));
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
      socket.write(`POST /obj/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1 << 30}\r\n\r\n`);
      // Keeps sending slowly, as a client that ignores the answer would.
      const trickle = setInterval(() => socket.writable && socket.write(Buffer.alloc(1024, 0x20)), 20);
      const t0 = Date.now();
      try {
        const at = await closed;
        expect(received).toMatch(/^HTTP\/1\.1 401 /);
        expect(received.toLowerCase()).toContain('connection: close');
        expect(at - t0).toBeLessThan(5000);
      } finally {
        clearInterval(trickle);
      }
    });
  },
  { BODY_LIMIT: String(LIMIT) },
);
