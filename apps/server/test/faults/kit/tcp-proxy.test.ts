// The proxy the fault tests put between the server and its database: it forwards, and cut(),
// stall() and restore() do to the connections what the fault tests rely on.
import { connect, createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { describeIfPostgres } from '@weft/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, throughProxy, type TcpProxy } from './tcp-proxy.ts';
import { staysFalse, waitFor } from './wait-for.ts';

/** An echo server that also counts what reached it. */
let echo: Server;
let echoPort = 0;
const reachedEcho = { bytes: 0, open: 0 };

beforeAll(async () => {
  echo = createServer((socket) => {
    reachedEcho.open++;
    socket.on('close', () => reachedEcho.open--);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      reachedEcho.bytes += chunk.length;
      socket.write(chunk);
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));

interface Client {
  socket: Socket;
  received: () => string;
  closed: () => boolean;
}

function open(proxy: TcpProxy): Promise<Client> {
  return new Promise((resolve, reject) => {
    let received = '';
    let closed = false;
    const socket = connect(proxy.port, proxy.host);
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.on('close', () => (closed = true));
    socket.once('error', reject);
    socket.once('connect', () => resolve({ socket, received: () => received, closed: () => closed }));
  });
}

const refused = (proxy: TcpProxy) => expect(open(proxy)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

describe('tcp proxy', () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await startTcpProxy({ host: '127.0.0.1', port: echoPort });
  });
  afterAll(() => proxy.close());

  it('forwards bytes both ways and counts them', async () => {
    const a = await open(proxy);
    a.socket.write('hello');
    await waitFor(() => a.received() === 'hello', { timeoutMs: 5000, what: 'the echo' });
    expect(proxy.counts()).toMatchObject({ open: 1, bytesToTarget: 5, bytesFromTarget: 5 });
    a.socket.destroy();
    await waitFor(() => proxy.counts().open === 0 && reachedEcho.open === 0, { timeoutMs: 5000, what: 'the pair to close' });
  });

  it('cut() closes every open pair at both ends and refuses new connections until restore()', async () => {
    const [a, b] = [await open(proxy), await open(proxy)];
    await waitFor(() => reachedEcho.open === 2, { timeoutMs: 5000, what: 'two connections at the target' });
    await proxy.cut();
    expect(proxy.state).toBe('cut');
    await waitFor(() => a.closed() && b.closed() && reachedEcho.open === 0, { timeoutMs: 5000, what: 'both ends to close' });
    expect(proxy.counts()).toMatchObject({ open: 0, cutPairs: 2 });
    await refused(proxy);

    await proxy.restore();
    const c = await open(proxy); // the same port as before the cut
    c.socket.write('back');
    await waitFor(() => c.received() === 'back', { timeoutMs: 5000, what: 'the echo after restore' });
    c.socket.destroy();
  });

  it('stall() moves no byte either way on open or new connections; restore() delivers them on the same connections', async () => {
    const a = await open(proxy);
    a.socket.write('one');
    await waitFor(() => a.received() === 'one', { timeoutMs: 5000, what: 'the echo before the stall' });
    const before = { ...reachedEcho };

    proxy.stall();
    a.socket.write('two');
    const b = await open(proxy); // accepted, as by a frozen host's kernel
    b.socket.write('three');
    await staysFalse(() => reachedEcho.bytes > before.bytes || a.received() !== 'one' || b.received() !== '', {
      forMs: 300,
      what: 'a byte crossing the stalled proxy',
    });
    expect(a.closed() || b.closed()).toBe(false);

    await proxy.restore();
    await waitFor(() => a.received() === 'onetwo' && b.received() === 'three', { timeoutMs: 5000, what: 'the held bytes after restore' });
    a.socket.destroy();
    b.socket.destroy();
  });

  it('a stall can be cut, and close() refuses for good', async () => {
    const a = await open(proxy);
    proxy.stall();
    await proxy.cut();
    await waitFor(() => a.closed(), { timeoutMs: 5000, what: 'the stalled connection to close' });
    await proxy.restore();
    expect(proxy.state).toBe('open');
    const b = await open(proxy);
    await proxy.close();
    await waitFor(() => b.closed(), { timeoutMs: 5000, what: 'close() to close the open pair' });
    await refused(proxy);
    await expect(proxy.restore()).rejects.toThrow(/closed/);
  });

  it('throughProxy points a URL at the proxy', () => {
    expect(throughProxy('postgres://postgres@127.0.0.1:5432/weft_t?sslmode=disable', { host: '127.0.0.1', port: 40001 })).toBe(
      'postgres://postgres@127.0.0.1:40001/weft_t?sslmode=disable',
    );
  });
});

describeIfPostgres('tcp proxy in front of PostgreSQL', (getUrl) => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    const url = new URL(getUrl());
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  });
  afterAll(() => proxy?.close());

  const client = async () => {
    const c = Object.assign(new pg.Client({ connectionString: throughProxy(getUrl(), proxy), connectionTimeoutMillis: 5000 }), {
      errors: [] as Error[],
    });
    c.on('error', (err) => c.errors.push(err));
    await c.connect();
    return c;
  };

  it('what a pg client sees: a cut ends its connection and refuses the next; a stall holds its query until restore', async () => {
    const a = await client();
    expect((await a.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await proxy.cut();
    await waitFor(() => a.errors.length > 0, { timeoutMs: 5000, what: 'the client to see its connection end' });
    expect(a.errors[0]!.message).toMatch(/terminated unexpectedly/);
    await expect(client()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await proxy.restore();

    const b = await client();
    proxy.stall();
    let answered = false;
    const pending = b.query<{ two: number }>('select 2 as two').then((r) => ((answered = true), r.rows));
    await staysFalse(() => answered, { forMs: 300, what: 'an answer through the stalled proxy' });
    await proxy.restore();
    expect(await pending).toEqual([{ two: 2 }]);
    await b.end();
  });
});
