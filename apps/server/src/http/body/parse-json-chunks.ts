// JSON bodies past ONE_PIECE_MAX_BYTES are parsed a slice at a time, giving the event loop back
// between slices: JSON.parse of a large body holds every other request (/health included) for as
// long as it takes, and a few clients sending large batches at once add their waits up. The same rules as parse-json.ts: strict top level, `{}` for an
// empty body, depth, exact numbers and storable text (checked on each token as it is read).
import { jsonNumberOf, JsonText, nativeJson, newJsonObject, validationDetail, type JsonNode } from '@weft/core';
import { JsonLimitError, JsonStreamParser, JsonSyntaxError, type ValueBuilder } from './json-stream-parser.ts';
import { malformedJson, unprocessable } from './body-errors.ts';
import { MAX_DEPTH, MAX_NUMBER_CHARS, refuseInexactNumbers, refuseUnstorableText } from './parse-json.ts';
import { Utf8Chunks } from './utf8-chunks.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Bodies up to this size are parsed in one piece (at most a millisecond or two). */
export const ONE_PIECE_MAX_BYTES = 64 * 1024;

/**
 * Bytes parsed between two turns of the event loop (well under a millisecond of work). Measured
 * against a time budget per turn (1–2 ms): a budget doubles the throughput of a large body when
 * the server is saturated, but puts /health's p99 under attack past 50 ms (BENCHMARKS.md §7).
 */
const SLICE_BYTES = 16 * 1024;

const FIRST = /[^ \t\n\r]/;

/**
 * Weave's lossless tree (number lexemes kept), as parseLossless makes it, built piece by piece;
 * a container read whole is kept as its text (JsonText), parsed only if something looks inside:
 * a table row is digested and stored from its text. The text is not checked here: the caller
 * parses the same chunks plainly first (read-body.ts), which refuses what is not JSON.
 */
const LOSSLESS: ValueBuilder = {
  object: () => newJsonObject(),
  number: jsonNumberOf,
  raw: (text) => new JsonText(text),
};

/**
 * The body's value: as JSON.parse makes it, or (`lossless`) Weave's lossless tree of a body this
 * function has already read plainly, without the refusals that pass made (read-body.ts).
 */
export async function parseJsonChunks(chunks: readonly Buffer[], opts: { lossless: true }): Promise<JsonNode>;
export async function parseJsonChunks(chunks: readonly Buffer[], opts?: { lossless?: false }): Promise<unknown>;
export async function parseJsonChunks(chunks: readonly Buffer[], opts: { lossless?: boolean } = {}): Promise<unknown> {
  let root: unknown;
  // Refusals of values wait for the end, as in parse-json.ts: a malformed body is a 400 first.
  const numberProblems: Array<{ loc: string[]; msg: string; type: string }> = [];
  let unstorable: Error | undefined;
  const parser = new JsonStreamParser({
    maxDepth: MAX_DEPTH,
    maxNumberChars: MAX_NUMBER_CHARS,
    scanContainer: nativeJson?.scanContainer,
    build: opts.lossless ? LOSSLESS : undefined,
    detach: () => false,
    // Containers go to JSON.parse (faster than building them here) up to 64 kB each; a larger
    // one is read piece by piece, so no single step grows with the body.
    raw: () => true,
    maxRawChars: 64 * 1024,
    onValue: (path, value) => {
      if (path.length === 0) root = value;
    },
    // The lossless pass reads a body the plain pass read and checked already (read-body.ts).
    inspect: opts.lossless
      ? undefined
      : (text) => {
          try {
            if (numberProblems.length < 10) refuseInexactNumbers(text);
          } catch (err) {
            numberProblems.push(...(err as { detail: typeof numberProblems }).detail);
          }
          try {
            if (unstorable === undefined) refuseUnstorableText(text);
          } catch (err) {
            unstorable = err as Error;
          }
        },
  });
  // Characters cut between chunks are joined; a byte-order mark is dropped.
  const decoder = new Utf8Chunks();
  let seen = false;
  let chars = 0;
  const feed = (text: string) => {
    if (!seen) {
      const first = FIRST.exec(text)?.[0];
      if (first !== undefined && first !== '{' && first !== '[') {
        throw malformedJson(`Unexpected token '${first}': the body must be a JSON object or array`);
      }
      seen = first !== undefined;
    }
    chars += text.length;
    parser.write(text);
  };
  try {
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
        feed(decoder.write(chunk.subarray(at, at + SLICE_BYTES)));
        await nextTurn();
      }
    }
    feed(decoder.end());
    // As body-parser: an empty body (a byte-order mark at most) is `{}`; blank text is malformed.
    if (chars === 0) return {};
    if (!seen) throw malformedJson('Unexpected end of JSON input');
    parser.end();
    if (numberProblems.length > 0) throw unprocessable(numberProblems.slice(0, 10));
    if (unstorable !== undefined) throw unstorable;
  } catch (err) {
    if (err instanceof JsonLimitError) {
      throw unprocessable([validationDetail(['body'], err.message, err.limit === 'depth' ? 'too_deep' : 'number_too_long')]);
    }
    if (err instanceof JsonSyntaxError) throw malformedJson(err.message);
    throw err;
  }
  return root;
}
