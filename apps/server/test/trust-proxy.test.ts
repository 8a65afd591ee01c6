// TRUST_PROXY over real HTTP: the address on a request's log line is the client's from
// X-Forwarded-For only when the proxy it came through is trusted; by default the header is
// ignored (anyone can write it).
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeIfPostgres } from '@weft/store/testing';
import { startTestServer, type TestDatabase, type TestServer } from './test-server.ts';

interface LogLine {
  req?: { id?: string; remoteAddress?: string };
}

/** A server whose log lines are kept, and a way to wait for the line of one request. */
function loggedServer(database: TestDatabase, env: Record<string, string>) {
  const lines: LogLine[] = [];
  const logged = new EventEmitter();
  let server: TestServer | undefined;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const text of chunk.toString().split('\n').filter(Boolean)) {
          const line = JSON.parse(text) as LogLine;
          lines.push(line);
          logged.emit('line', line);
        }
        done();
      },
    });
    server = await startTestServer(database, env, pino({ level: 'info' }, sink));
  });
  afterAll(async () => {
    await server?.close();
  });
  /** The address logged for a request that went through proxies adding `forwardedFor`. */
  return async (requestId: string, forwardedFor?: string): Promise<string | undefined> => {
    const seen = new Promise<LogLine>((resolve) => {
      const look = (line: LogLine) => {
        if (line.req?.id !== requestId) return;
        logged.off('line', look);
        resolve(line);
      };
      logged.on('line', look);
    });
    const key = Buffer.from(`api:${server!.aliceKey}`).toString('base64');
    const res = await fetch(`${server!.url}/server_info`, {
      headers: { authorization: `Basic ${key}`, 'x-request-id': requestId, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    });
    expect(res.status).toBe(200);
    return (await seen).req?.remoteAddress;
  };
}

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

for (const database of ['sqlite', 'postgres'] as const) {
  const describeOn = database === 'postgres' ? describeIfPostgres : describe;

  describeOn(`TRUST_PROXY unset [${database}]`, () => {
    const addressOf = loggedServer(database, {});
    it('logs the peer address and ignores X-Forwarded-For', async () => {
      expect(await addressOf('plain-1')).toMatch(LOOPBACK);
      expect(await addressOf('forged-1', '203.0.113.7')).toMatch(LOOPBACK);
    });
  });

  describeOn(`TRUST_PROXY=loopback [${database}]`, () => {
    const addressOf = loggedServer(database, { TRUST_PROXY: 'loopback' });
    it('logs the client address the trusted proxy forwarded, and stops at the first untrusted hop', async () => {
      expect(await addressOf('proxied-1', '203.0.113.7')).toBe('203.0.113.7');
      // The client itself wrote 198.51.100.9; 203.0.113.7 reached the (trusted) proxy: that is the client.
      expect(await addressOf('proxied-2', '198.51.100.9, 203.0.113.7')).toBe('203.0.113.7');
      expect(await addressOf('direct-1')).toMatch(LOOPBACK);
    });
  });

  describeOn(`TRUST_PROXY=2 [${database}]`, () => {
    const addressOf = loggedServer(database, { TRUST_PROXY: '2' });
    it('trusts that many hops and no more', async () => {
      expect(await addressOf('hops-1', '198.51.100.9, 203.0.113.7, 192.0.2.1')).toBe('203.0.113.7');
    });
  });
}
