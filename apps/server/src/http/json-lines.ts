// JSON Lines answers (`application/jsonl`, one JSON value per line), as Weave streams queries.
// Lines are written as the store yields them, so a large result never sits in memory as one
// string; backpressure is honoured. An error before the first line still gets a normal error
// body; after it, the connection is cut (the client sees a truncated stream, never a fake end).
import type { Response } from 'express';
import { once } from 'node:events';

export async function writeJsonLines(res: Response, items: AsyncIterable<unknown> | Iterable<unknown>): Promise<void> {
  let started = false;
  for await (const item of items) {
    if (!started) {
      res.status(200).type('application/jsonl');
      started = true;
    }
    if (!res.write(JSON.stringify(item) + '\n')) await once(res, 'drain');
  }
  if (!started) res.status(200).type('application/jsonl');
  res.end();
}
