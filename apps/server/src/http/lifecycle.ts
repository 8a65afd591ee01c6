// Graceful shutdown. While draining, the listening socket is closed (a load balancer sees refused
// connections and /health 503), requests already in flight run to completion, and a new request
// on a kept-alive connection is answered 503 with `Connection: close`, so no request is dropped.
import type { Server } from 'node:http';
import type { RequestHandler } from 'express';

export interface Lifecycle {
  readonly draining: boolean;
}

export interface Drainer extends Lifecycle {
  /** Stops accepting, waits for requests in flight up to `timeoutMs`, then cuts what is left. */
  drain(server: Server, timeoutMs: number): Promise<{ cut: number }>;
}

export function createDrainer(): Drainer {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    async drain(server, timeoutMs) {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Kept-alive connections between requests would hold close() open: close them as they go idle.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const outcome = await Promise.race([closed.then(() => 'closed' as const), timedOut]);
      clearInterval(sweep);
      clearTimeout(timer);
      if (outcome === 'closed') return { cut: 0 };
      const cut = await new Promise<number>((resolve) => server.getConnections((_err, n) => resolve(n)));
      server.closeAllConnections();
      await closed;
      return { cut };
    },
  };
}

/** In front of everything: while draining, new requests get 503 and the connection is closed after. */
export function drainGuard(lifecycle: Lifecycle, exempt: (path: string) => boolean): RequestHandler {
  return (req, res, next) => {
    if (!lifecycle.draining) return next();
    res.set('Connection', 'close');
    if (exempt(req.path)) return next();
    res
      .status(503)
      .set('Retry-After', '1')
      .json({ reason: 'The server is shutting down; retry on another replica', error_type: 'ServiceUnavailable' });
  };
}
