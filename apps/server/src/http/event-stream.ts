// Writes a server-sent events answer (the router's streamed chat completions): one `data:` event
// per payload, written as it is pulled, never batched. Back-pressure: the next payload is pulled
// only once the previous one was taken by the socket (write, then wait for 'drain'), so a slow
// client slows the upstream instead of filling the server's memory. A client that keeps its
// window shut for longer than `stallMs` is given up on (the socket destroyed). Leaving the loop
// early (client gone, stalled) returns the iterator, which aborts the upstream request.
import type { Response } from 'express';
import { writePiece } from './write-piece.ts';

export interface EventStreamOptions {
  /** Aborted when the client went away (client-gone.ts): stop pulling at once. */
  signal: AbortSignal;
  /** Longest wait for a full socket to drain before the client is given up on. */
  stallMs: number;
  /** Headers of the answer besides the SSE ones (X-Weft-Call-Id). */
  headers?: Record<string, string>;
}

/** How the stream ended: written whole, or cut because the client went away or stalled. */
export type EventStreamEnd = 'finished' | 'client_gone' | 'client_stalled';

export async function writeEventStream(res: Response, events: AsyncIterable<string>, opts: EventStreamOptions): Promise<EventStreamEnd> {
  res.writeHead(200, {
    ...opts.headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    // No proxy or browser may cache, transform or buffer an event stream (nginx: X-Accel-Buffering).
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
  });
  // The status line and headers go out now: the client's create() resolves on them, before the
  // first token.
  res.flushHeaders();
  let stalled = false;
  for await (const payload of events) {
    if (opts.signal.aborted) break;
    const timer = setTimeout(() => {
      stalled = true;
      res.destroy();
    }, opts.stallMs);
    const open = await writePiece(res, `data: ${payload}\n\n`).finally(() => clearTimeout(timer));
    if (!open) break;
  }
  if (stalled) return 'client_stalled';
  if (opts.signal.aborted || res.destroyed) return 'client_gone';
  res.end();
  return 'finished';
}
