// Large JSON answers are written in slices with the bytes of JSON.stringify; small ones as before.
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import express, { type Response } from 'express';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { countTurns } from '../../test/event-loop-turns.ts';
import { jsonPieces, sliceJsonAnswers } from './json-answer.ts';

async function serve(answer: (res: Response) => void) {
  const app = express();
  app.get('/a', (_req, res) => answer(res));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/a` };
}

it('slices to the bytes of JSON.stringify, whatever the values', () => {
  const value = fc.oneof(
    fc.jsonValue(),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
    fc.constant(() => 1),
  );
  const body = fc.oneof(fc.array(value), fc.dictionary(fc.string(), fc.oneof(value, fc.array(value))));
  fc.assert(
    fc.property(body, (b) => {
      expect([...jsonPieces(b)].join('')).toBe(JSON.stringify(b));
    }),
    { numRuns: 2000 },
  );
});

it('writes runs of strings (row digests, ids) as JSON.stringify does, a bounded run at a time', () => {
  const strings = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('\ud800', '\u2028"\\', 'x'.repeat(70_000)));
  const item = fc.oneof({ weight: 5, arbitrary: strings }, { weight: 1, arbitrary: fc.oneof(fc.jsonValue(), fc.constant(undefined)) });
  fc.assert(
    fc.property(fc.array(item, { maxLength: 300 }), (list) => {
      expect([...jsonPieces(list)].join('')).toBe(JSON.stringify(list));
      expect([...jsonPieces({ row_digests: list, digest: 'd' })].join('')).toBe(JSON.stringify({ row_digests: list, digest: 'd' }));
    }),
    { numRuns: 500 },
  );
  // 100,000 digests: a few runs, none longer than a piece and one item.
  const digests = Array.from({ length: 100_000 }, (_, i) => `${i}`.padStart(43, 'd'));
  const pieces = [...jsonPieces(digests)];
  expect(pieces.join('')).toBe(JSON.stringify(digests));
  expect(pieces.length).toBeLessThan(100);
  expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(2 * 64 * 1024);
});

it('writes a large answer in slices, giving the event loop turns, and the client reads it whole', async () => {
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ digest: `d${i}`, val: { i, text: 'x'.repeat(40) }, original_index: i }));
  let turns = 0;
  let seenByWrapper: unknown;
  const { server, url } = await serve((res) => {
    sliceJsonAnswers(res);
    // As express-openapi-validator wraps res.json for response validation: it must still see the answer.
    const sliced = res.json.bind(res);
    res.json = (body?: unknown) => ((seenByWrapper = body), sliced(body));
    const counter = countTurns();
    res.on('finish', () => (turns = counter.stop()));
    res.json({ rows });
  });
  try {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    expect(text).toBe(JSON.stringify({ rows }));
  } finally {
    server.close();
  }
  expect(seenByWrapper).toEqual({ rows });
  expect(turns).toBeGreaterThan(2);
});

it('writes a small answer as res.json does, with its length', async () => {
  const { server, url } = await serve((res) => {
    sliceJsonAnswers(res);
    res.status(201).json({ rows: [1, 2, 3], n: 3 });
  });
  try {
    const res = await fetch(url);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-length')).toBe(String(JSON.stringify({ rows: [1, 2, 3], n: 3 }).length));
    expect(await res.json()).toEqual({ rows: [1, 2, 3], n: 3 });
  } finally {
    server.close();
  }
});

it('stops writing when the client goes away mid-answer', async () => {
  let finished: Promise<string>;
  let answer: Response;
  const { server, url } = await serve((res) => {
    answer = res;
    sliceJsonAnswers(res);
    finished = new Promise((resolve) => res.on('close', () => resolve(res.writableFinished ? 'finished' : 'closed')));
    res.json(Array.from({ length: 200_000 }, (_, i) => ({ i, pad: 'y'.repeat(100) })));
  });
  try {
    const { port } = new URL(url);
    // Reads the first bytes, then leaves without reading the rest (the server's buffer fills).
    const socket = connect(Number(port), '127.0.0.1');
    socket.write('GET /a HTTP/1.1\r\nhost: x\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await expect(finished!).resolves.toBe('closed');
    // The writer was waiting for 'drain': it has given up, leaving no listener behind.
    await new Promise((resolve) => setImmediate(resolve));
    expect(answer!.listenerCount('drain')).toBe(0);
  } finally {
    server.close();
  }
});
