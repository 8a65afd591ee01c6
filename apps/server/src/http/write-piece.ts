// One piece of an answer written in pieces (JSON Lines, sliced JSON), honouring backpressure: a
// slow reader makes the writer wait, not the server buffer the whole answer.
import type { Response } from 'express';

/** Characters gathered into one piece before it is written: a few socket buffers' worth. */
export const PIECE_CHARS = 64 * 1024;

/** Writes `text`, waiting while the client's buffer is full; false once the connection is gone. */
export async function writePiece(res: Response, text: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (text.length > 0 && !res.write(text)) {
    // 'close' too: a client that stops reading and goes away never drains. Plain listeners, not
    // events.once with an AbortSignal: a piece larger than the socket's buffer waits here every
    // time, and the signal's bookkeeping was a visible share of a query's answer.
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  return !res.destroyed;
}
