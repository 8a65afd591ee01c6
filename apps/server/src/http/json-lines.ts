// JSON Lines answers (`application/jsonl`, one JSON value per line), as Weave streams queries.
// Lines are written as the store yields them, so a large result never sits in memory as one
// string; backpressure is honoured. An error before the first line still gets a normal error
// body; after it, the connection is cut (the client sees a truncated stream, never a fake end).
// The event loop gets a turn every TURN_MS: a fast client never applies backpressure, and an
// async generator alone never leaves the microtask queue, so 30,000 calls would otherwise go out
// in one block (measured: /health waited the whole 0.9 s).
import { TurnClock } from '@weft/core';
import type { Response } from 'express';
import { writePiece } from './write-piece.ts';

export async function writeJsonLines(res: Response, items: AsyncIterable<unknown> | Iterable<unknown>): Promise<void> {
  let started = false;
  const clock = new TurnClock();
  for await (const item of items) {
    if (!started) {
      res.status(200).type('application/jsonl');
      started = true;
    }
    if (!(await writePiece(res, JSON.stringify(item) + '\n'))) return;
    if (clock.due) await clock.pass();
  }
  if (!started) res.status(200).type('application/jsonl');
  res.end();
}
