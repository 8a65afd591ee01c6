// Start-up and graceful shutdown. The port opens before migrations run, so an orchestrator sees a
// live process (`/health` 200) that is not ready yet (`/ready` 503 `starting`); meanwhile every
// other request is answered 503 with Retry-After. While draining, the listening socket is closed,
// requests already in flight run to completion, and a new request on a kept-alive connection is
// answered 503 with `Connection: close`, so no request is dropped.
import type { Server } from 'node:http';
import type { RequestHandler } from 'express';
import { serviceUnavailable } from '@weft/core';
import { errorHandler } from './error-handler.ts';

export type Phase = 'starting' | 'serving' | 'draining';

export interface Lifecycle {
  readonly phase: Phase;
}

export interface Drainer extends Lifecycle {
  /** Start-up is over: requests are served. */
  serve(): void;
  /**
   * Stops accepting, waits for requests in flight up to `timeoutMs`, then cuts what is left.
   * `closeSilent` closes the connections that have not sent a byte yet (Node's idle sweep leaves
   * them to the headers timeout).
   */
  drain(server: Server, timeoutMs: number, closeSilent?: () => void): Promise<{ cut: number }>;
}

export function createDrainer(): Drainer {
  let phase: Phase = 'starting';
  return {
    get phase() {
      return phase;
    },
    serve() {
      if (phase === 'starting') phase = 'serving';
    },
    async drain(server, timeoutMs, closeSilent) {
      phase = 'draining';
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Kept-alive connections between requests would hold close() open: close them as they go idle.
      const closeQuiet = () => {
        server.closeIdleConnections();
        closeSilent?.();
      };
      const sweep = setInterval(closeQuiet, 50);
      closeQuiet();
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

/**
 * In front of everything: while starting or draining, new requests get 503 (and, draining, the
 * connection is closed after), but for `exempt` paths (health and readiness, which say why).
 */
export function lifecycleGuard(lifecycle: Lifecycle, exempt: (path: string) => boolean): RequestHandler {
  return (req, res, next) => {
    const phase = lifecycle.phase;
    if (phase === 'serving') return next();
    if (phase === 'draining') res.set('Connection', 'close');
    if (exempt(req.path)) return next();
    const refusal =
      phase === 'draining'
        ? serviceUnavailable('The server is shutting down; retry on another replica')
        : serviceUnavailable('The server is starting (applying database migrations); retry shortly', 2);
    errorHandler(refusal, req, res, next);
  };
}
