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

it('gathers lines into pieces: a 100-line answer of 80 kB takes a couple of writes, not a hundred', async () => {
  const app = express();
  let writes = 0;
  app.get('/lines', (_req, res) => {
    const write = res.write.bind(res) as (chunk: string) => boolean;
    const end = res.end.bind(res) as (chunk?: string) => typeof res;
    res.write = ((chunk: string) => {
      writes++;
      return write(chunk);
    }) as typeof res.write;
    res.end = ((chunk?: string) => {
      if (chunk) writes++;
      return end(chunk);
    }) as typeof res.end;
    async function* items() {
      for (let i = 0; i < 100; i++) yield { i, text: 'y'.repeat(790) };
    }
    void writeJsonLines(res, items());
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const got = (await (await fetch(`http://127.0.0.1:${port}/lines`)).text()).trimEnd().split('\n');
    expect(got.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  } finally {
    server.close();
  }
  // Two pieces by size; on a loaded machine the writer may also be due a turn of the event loop,
  // which writes what it has: a few more at most, never one a line.
  expect(writes).toBeLessThanOrEqual(4);
});
