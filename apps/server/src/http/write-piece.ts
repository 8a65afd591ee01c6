// One piece of an answer written in pieces (JSON Lines, sliced JSON), honouring backpressure: a
// slow reader makes the writer wait, not the server buffer the whole answer.
import type { Response } from 'express';
import { once } from 'node:events';

/** Writes `text`, waiting while the client's buffer is full; false once the connection is gone. */
export async function writePiece(res: Response, text: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (text.length > 0 && !res.write(text)) {
    // 'close' too: a client that stops reading and goes away never drains.
    const stop = new AbortController();
    await Promise.race([once(res, 'drain', { signal: stop.signal }), once(res, 'close', { signal: stop.signal })]).finally(() =>
      stop.abort(),
    );
  }
  return !res.destroyed;
}
