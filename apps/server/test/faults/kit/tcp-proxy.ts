// A TCP proxy between the server and its database (or Redis) that a fault test breaks on purpose:
//
// - cut(): every open connection is closed (both ends, as when the database process dies: the
//   kernel sends FIN) and the listening socket is closed, so a new connection is refused
//   (ECONNREFUSED), which is what a client sees when nothing listens on the database's port any
//   more. Accepting and closing at once would instead look like a database that answers and then
//   drops, a different fault. The same port listens again on restore(), so URLs stay valid.
// - stall(): connections stay open but no byte moves either way, as with a frozen database host
//   or a silent network: both sockets of every pair stop being read (socket.pause), so the bytes
//   wait in the kernel's buffers, then TCP flow control stops the sender; the proxy holds no
//   queue of its own (at most one stream buffer read before the pause took effect). New
//   connections are accepted (the kernel of a frozen host still completes handshakes) and stall.
// - restore(): back to forwarding; restore() after stall() resumes the very same connections.
import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyState = 'open' | 'stalled' | 'cut' | 'closed';

export interface ProxyCounts {
  /** Connections accepted since the start. */
  accepted: number;
  /** Pairs open now. */
  open: number;
  /** Pairs closed by cut(). */
  cutPairs: number;
  bytesToTarget: number;
  bytesFromTarget: number;
}

export interface TcpProxy {
  readonly host: string;
  readonly port: number;
  readonly state: ProxyState;
  counts(): ProxyCounts;
  cut(): Promise<void>;
  stall(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  target: Socket;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const host = '127.0.0.1';
  const pairs = new Set<Pair>();
  const counts = { accepted: 0, cutPairs: 0, bytesToTarget: 0, bytesFromTarget: 0 };
  let state: ProxyState = 'open';
  let server: Server;

  const forward = (from: Socket, to: Socket, count: (n: number) => void) => {
    from.on('data', (chunk: Buffer) => {
      // A chunk read just before a stall is delivered, like a packet already on the wire.
      count(chunk.length);
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => state === 'open' && from.resume());
      }
    });
    from.on('end', () => to.end());
  };

  const accept = (client: Socket) => {
    counts.accepted++;
    if (state === 'cut' || state === 'closed') return void client.destroy();
    const pair: Pair = { client, target: connect(target.port, target.host) };
    pairs.add(pair);
    const drop = () => {
      pair.client.destroy();
      pair.target.destroy();
      pairs.delete(pair);
    };
    for (const socket of [pair.client, pair.target]) socket.on('error', drop).on('close', drop);
    forward(pair.client, pair.target, (n) => (counts.bytesToTarget += n));
    forward(pair.target, pair.client, (n) => (counts.bytesFromTarget += n));
    if (state === 'stalled') pausePair(pair);
  };

  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const s = createServer(accept);
      s.once('error', reject);
      s.listen(port, host, () => {
        s.off('error', reject);
        resolve(s);
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const dropAll = () => {
    for (const pair of [...pairs]) {
      pair.client.destroy();
      pair.target.destroy();
      pairs.delete(pair);
    }
  };

  server = await listen(0);
  const port = (server.address() as { port: number }).port;

  return {
    host,
    port,
    get state() {
      return state;
    },
    counts: () => ({ ...counts, open: pairs.size }),
    async cut() {
      if (state === 'cut' || state === 'closed') return;
      state = 'cut';
      counts.cutPairs += pairs.size;
      dropAll();
      await stopListening();
    },
    stall() {
      if (state !== 'open') throw new Error(`stall() on a proxy that is ${state}`);
      state = 'stalled';
      for (const pair of pairs) pausePair(pair);
    },
    async restore() {
      if (state === 'closed') throw new Error('restore() on a closed proxy');
      if (state === 'cut') {
        // Another process may have taken the port meanwhile (unlikely: it was never free long).
        server = await listen(port);
      }
      state = 'open';
      for (const pair of pairs) {
        pair.client.resume();
        pair.target.resume();
      }
    },
    async close() {
      if (state === 'closed') return;
      const wasListening = state !== 'cut';
      state = 'closed';
      dropAll();
      if (wasListening) await stopListening();
    },
  };
}

function pausePair(pair: Pair): void {
  pair.client.pause();
  pair.target.pause();
}

/** `url` (postgres://…, redis://…) with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: Pick<TcpProxy, 'host' | 'port'>): string {
  const u = new URL(url);
  u.hostname = proxy.host;
  u.port = String(proxy.port);
  return u.toString();
}
