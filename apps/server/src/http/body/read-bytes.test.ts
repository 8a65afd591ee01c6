// The reading loop over real sockets: a node:http server reads what a client sends in pieces.
import { once } from 'node:events';
import { createServer, request, type ClientRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { readChunks, readEachChunk } from './read-bytes.ts';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A server whose one request goes to `read`; the client request it is sent on (not yet ended). */
async function serve<T>(read: (req: IncomingMessage) => Promise<T>, headers: Record<string, string> = {}) {
  let result!: Promise<T>;
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  let incoming!: IncomingMessage;
  server = createServer((req, res) => {
    incoming = req;
    result = read(req);
    arrived();
    // Answer once read (or refused): the client's request then ends whatever happened.
    void result.then(
      () => res.end('read'),
      () => res.end('refused'),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const client: ClientRequest = request({ port, host: '127.0.0.1', method: 'POST', path: '/', headers });
  client.on('error', () => undefined);
  client.flushHeaders();
  await reached;
  return { client, outcome: () => result, incoming: () => incoming };
}

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('readEachChunk', () => {
  it('hands the chunks over in order, one take at a time, and reads nothing while a take is pending', async () => {
    const taken: string[] = [];
    let active = 0;
    let most = 0;
    const gates = [deferred(), deferred(), deferred()];
    const { client, outcome, incoming } = await serve((req) =>
      readEachChunk(req, 1024, async (chunk) => {
        active++;
        most = Math.max(most, active);
        taken.push(chunk.toString());
        await gates[taken.length - 1]?.promise;
        active--;
      }),
    );
    client.write('one');
    await expect.poll(() => taken.length).toBe(1);
    // The first take holds the reading: the request is paused, the next piece waits in the socket.
    client.write('two');
    await expect.poll(() => incoming().readableFlowing).toBe(false);
    expect(taken).toEqual(['one']);
    gates[0]!.resolve();
    await expect.poll(() => taken.length).toBe(2);
    client.end('three');
    gates[1]!.resolve();
    gates[2]!.resolve();
    await outcome();
    expect(taken.join('')).toBe('onetwothree');
    expect(most).toBe(1);
  });

  it('when a take fails, reads the rest of the body (counted, not taken), then throws its error', async () => {
    const taken: string[] = [];
    const { client, outcome, incoming } = await serve((req) =>
      readEachChunk(req, 1024, (chunk) => {
        taken.push(chunk.toString());
        throw new Error('disk full');
      }),
    );
    client.write('first');
    await expect.poll(() => taken.length).toBe(1);
    client.end('second');
    await expect(outcome()).rejects.toThrow('disk full');
    expect(incoming().complete).toBe(true);
    expect(taken).toEqual(['first']);
  });

  it('refuses a body past the limit with 413 as it arrives, and leaves the socket open for the answer', async () => {
    const { client, outcome, incoming } = await serve((req) => readChunks(req, 8));
    client.write('12345');
    client.write('67890');
    await expect(outcome()).rejects.toMatchObject({ status: 413, type: 'entity.too.large' });
    expect(incoming().destroyed).toBe(false);
    expect(incoming().socket.destroyed).toBe(false);
    client.end();
  });

  it('inflates gzip, counting the limit after inflating, and answers a corrupt body with 400', async () => {
    const text = 'x'.repeat(100_000);
    const ok = await serve((req) => readChunks(req, 200_000), { 'content-encoding': 'gzip' });
    ok.client.end(gzipSync(text));
    expect(Buffer.concat(await ok.outcome()).toString()).toBe(text);
    server?.close();

    const bomb = await serve((req) => readChunks(req, 50_000), { 'content-encoding': 'gzip' });
    bomb.client.end(gzipSync(text));
    await expect(bomb.outcome()).rejects.toMatchObject({ status: 413 });
    server?.close();

    const corrupt = await serve((req) => readChunks(req, 200_000), { 'content-encoding': 'gzip' });
    corrupt.client.end(Buffer.from('not gzip at all'));
    await expect(corrupt.outcome()).rejects.toMatchObject({ status: 400, type: 'entity.corrupt' });
  });

  it('answers a client that goes away mid-body with request.aborted, plain or inflating', async () => {
    for (const headers of [{}, { 'content-encoding': 'gzip' }] as Record<string, string>[]) {
      const { client, outcome } = await serve((req) => readChunks(req, 1_000_000), headers);
      client.write(Object.keys(headers).length ? gzipSync('y'.repeat(10_000)).subarray(0, 20) : 'partial');
      client.destroy();
      await expect(outcome()).rejects.toMatchObject({ status: 400, type: 'request.aborted' });
      server?.closeAllConnections();
      server?.close();
    }
  });
});
