// A long JSON Lines answer must leave the event loop to other requests while it is written: a
// fast client never applies backpressure, so nothing else would make it wait.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expect, it } from 'vitest';
import { countTurns } from '../../test/event-loop-turns.ts';
import { writeJsonLines } from './json-lines.ts';

it('gives other work turns of the event loop while it writes many lines, and writes them all in order', async () => {
  const lines = 40_000;
  let turns = 0;
  const app = express();
  app.get('/lines', (_req, res) => {
    const counter = countTurns();
    // A synchronous source: only the writer itself can give the loop a turn.
    function* items() {
      for (let i = 0; i < lines; i++) yield { i, text: 'x'.repeat(64) };
    }
    void writeJsonLines(res, items()).finally(() => (turns = counter.stop()));
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/lines`);
    expect(res.headers.get('content-type')).toMatch(/^application\/jsonl/);
    const got = (await res.text()).trimEnd().split('\n');
    expect(got).toHaveLength(lines);
    expect(got.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual(Array.from({ length: lines }, (_, i) => i));
  } finally {
    server.close();
  }
  expect(turns).toBeGreaterThan(2);
});
