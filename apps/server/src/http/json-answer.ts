// JSON answers with many items are written in slices. `res.json` stringifies the whole answer in
// one go: a table or a project read without a limit (50 MB of rows) held the event loop for over
// a second. An answer is sliced when it is a list, or an object holding a list, of more than
// SLICE_MIN_ITEMS items: each item is stringified on its own, the text goes out in pieces of
// about PIECE_CHARS, and the event loop gets a turn every TURN_MS. The bytes are those of
// JSON.stringify (json-answer.test.ts); one item is still stringified whole, and an item is at
// most a body the server accepted.
//
// It replaces res.json before the validator wraps it, so response validation (VALIDATE_RESPONSES)
// still sees every answer before it is written.
import type { Response } from 'express';
import { TurnClock } from '@weft/core';
import { PIECE_CHARS, writePiece } from './write-piece.ts';

const SLICE_MIN_ITEMS = 64;

type Json = (body?: unknown) => Response;

/** Makes `res.json` write large answers in slices. */
export function sliceJsonAnswers(res: Response): void {
  const whole: Json = res.json.bind(res);
  res.json = (body?: unknown) => {
    if (!isLarge(body)) return whole(body);
    res.type('application/json; charset=utf-8');
    void writeSliced(res, body).catch((err: unknown) => res.destroy(err as Error));
    return res;
  };
}

function isLarge(body: unknown): body is unknown[] | Record<string, unknown> {
  if (Array.isArray(body)) return body.length > SLICE_MIN_ITEMS;
  if (body === null || typeof body !== 'object' || Object.getPrototypeOf(body) !== Object.prototype || 'toJSON' in body) return false;
  return Object.values(body).some((v) => Array.isArray(v) && v.length > SLICE_MIN_ITEMS);
}

/** The pieces of JSON.stringify(body) for a list or a plain object, one list item at a time. */
export function* jsonPieces(body: readonly unknown[] | Record<string, unknown>): Generator<string> {
  if (Array.isArray(body)) {
    yield* arrayPieces(body);
    return;
  }
  let first = true;
  yield '{';
  for (const [key, value] of Object.entries(body)) {
    const text = Array.isArray(value) ? '' : JSON.stringify(value);
    // As JSON.stringify: properties whose value has no JSON form (undefined, functions) are left out.
    if (text === undefined) continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (Array.isArray(value)) yield* arrayPieces(value as unknown[]);
    else yield text;
  }
  yield '}';
}

function* arrayPieces(items: readonly unknown[]): Generator<string> {
  yield '[';
  for (let i = 0; i < items.length;) {
    const start = i;
    let text: string;
    if (typeof items[i] === 'string') {
      // A run of strings (a table's row digests, ids) stringified as one list, its brackets cut:
      // the same bytes, at a fraction of the cost of a piece per item. At most a piece's worth of
      // characters a run (six times that once escaped), so no run holds the event loop for long.
      let chars = 0;
      while (i < items.length && typeof items[i] === 'string' && chars < PIECE_CHARS) chars += (items[i++] as string).length;
      text = JSON.stringify(items.slice(start, i)).slice(1, -1);
    } else {
      // As JSON.stringify: list items without a JSON form are null.
      text = JSON.stringify(items[i++]) ?? 'null';
    }
    yield start === 0 ? text : `,${text}`;
  }
  yield ']';
}

async function writeSliced(res: Response, body: readonly unknown[] | Record<string, unknown>): Promise<void> {
  const clock = new TurnClock();
  let piece = '';
  for (const text of jsonPieces(body)) {
    piece += text;
    if (piece.length < PIECE_CHARS && !clock.due) continue;
    if (!(await writePiece(res, piece))) return;
    piece = '';
    if (clock.due) await clock.pass();
  }
  if (await writePiece(res, piece)) res.end();
}
