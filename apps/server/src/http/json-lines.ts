// JSON Lines answers (`application/jsonl`, one JSON value per line), as Weave streams queries.
// Lines go out as the store yields them, gathered into pieces of up to PIECE_CHARS: a write per
// line would cost a system call and a chunk header per line, most of a short query's time on the
// wire. A piece is written when full, when the event loop is due a turn, and at the end; so a
// large result never sits in memory as one string, and backpressure is honoured. An error before
// the first line still gets a normal error body; after it, the connection is cut (the client sees
// a truncated stream, never a fake end). The event loop gets a turn every TURN_MS: a fast client
// never applies backpressure, and an async generator alone never leaves the microtask queue, so
// 30,000 calls would otherwise go out in one block.
import { TurnClock } from '@weft/core';
import type { Response } from 'express';
import { PIECE_CHARS, writePiece } from './write-piece.ts';

export async function writeJsonLines(res: Response, items: AsyncIterable<unknown> | Iterable<unknown>): Promise<void> {
  let started = false;
  let piece = '';
  const clock = new TurnClock();
  for await (const item of items) {
    if (!started) {
      res.status(200).type('application/jsonl');
      started = true;
    }
    piece += JSON.stringify(item) + '\n';
    const due = clock.due;
    if (piece.length >= PIECE_CHARS || due) {
      if (!(await writePiece(res, piece))) return;
      piece = '';
      if (due) await clock.pass();
    }
  }
  if (!started) res.status(200).type('application/jsonl');
  if (!res.destroyed) res.end(piece);
}
