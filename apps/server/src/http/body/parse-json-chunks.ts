// JSON bodies past ONE_PIECE_MAX_BYTES are parsed a slice at a time, giving the event loop back
// between slices: JSON.parse of a large body holds every other request (/health included) for as
// long as it takes, and a few clients sending large batches at once add their waits up. The same rules as parse-json.ts: strict top level, `{}` for an
// empty body, depth, exact numbers and storable text (checked on each token as it is read).
import {
  digestRowsAhead,
  JsonNumber,
  jsonNumberOf,
  JsonText,
  nativeJson,
  newJsonObject,
  TurnClock,
  validationDetail,
  type JsonNode,
} from '@weft/core';
import { JsonLimitError, JsonStreamParser, JsonSyntaxError, setOwn, type PathKey, type ValueBuilder } from './json-stream-parser.ts';
import { malformedJson, unprocessable } from './body-errors.ts';
import { MAX_DEPTH, MAX_NUMBER_CHARS, refuseInexactNumbers, refuseUnstorableText } from './parse-json.ts';
import { Utf8Chunks } from './utf8-chunks.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Bodies up to this size are parsed in one piece (at most a millisecond or two). */
export const ONE_PIECE_MAX_BYTES = 64 * 1024;

/**
 * Characters parsed between two turns of the event loop (well under a millisecond of work).
 * Measured against a time budget per turn (1–2 ms): a budget doubles the throughput of a large
 * body when the server is saturated, but puts /health's p99 under attack past 50 ms
 * (BENCHMARKS.md §7).
 */
const SLICE_CHARS = 16 * 1024;

/**
 * Bytes decoded into one string (about a millisecond): a string this long is allocated outside
 * V8's young generation, so the values cut from it (a table row's text is a slice of it) are never
 * copied by the garbage collector as they survive, as they were from slice-sized strings.
 */
const DECODE_BYTES = 1024 * 1024;

/** Text of the rows sent to the digest thread at once: a message costs about what a few rows do. */
const DIGEST_BATCH_CHARS = 128 * 1024;

const FIRST = /[^ \t\n\r]/;

/** The body's value, as JSON.parse makes it. */
export async function parseJsonChunks(chunks: readonly Buffer[]): Promise<unknown> {
  return (await readChunks(chunks, undefined)) ?? {};
}

/**
 * A lossless operation's body, read once: Weave's lossless tree (number lexemes kept, as
 * parseLossless makes it) and the value JSON.parse makes, derived from the tree. A container read
 * whole (a table row, up to 64 kB) is parsed by JSON.parse as it is read, which refuses what is
 * not JSON at its place, and stays in the tree as its text (JsonText): a table row is digested
 * and stored from its text, and parsed losslessly only if something looks inside it.
 *
 * An object read whole where `keptAsText` says its value is only stored (a table row, whose
 * schema asks only that it be an object) is not parsed at all when the addon is built: its stored
 * text is made instead (storedJsonOfText, which answers only for text JSON.parse accepts), its
 * digest on the digest thread while the rest is read, and the JsonText itself stands in the
 * plain value, an object as the validator needs.
 */
export async function parseLosslessJsonChunks(
  chunks: readonly Buffer[],
  keptAsText?: (path: readonly PathKey[]) => boolean,
): Promise<{ value: unknown; source: JsonNode }> {
  const parsed = new Map<JsonText, unknown>();
  const storedJsonOfText = nativeJson?.storedJsonOfText;
  const digesting: Promise<void>[] = [];
  let batch: JsonText[] = [];
  let batchChars = 0;
  const flush = () => {
    digesting.push(digestRowsAhead(batch));
    batch = [];
    batchChars = 0;
  };
  const root = await readChunks(chunks, {
    object: () => newJsonObject(),
    number: jsonNumberOf,
    raw: (text, path) => {
      const node = new JsonText(text);
      if (storedJsonOfText && text.charCodeAt(0) === 0x7b && keptAsText?.(path)) {
        node.stored = storedJsonOfText(text);
        if (node.stored !== undefined) {
          batch.push(node);
          if ((batchChars += text.length) >= DIGEST_BATCH_CHARS) flush();
          return node;
        }
      }
      parsed.set(node, JSON.parse(text) as unknown);
      return node;
    },
  });
  if (batch.length > 0) flush();
  if (root === undefined) return { value: {}, source: newJsonObject() };
  const value = await plainOf(root as JsonNode, parsed);
  await Promise.all(digesting);
  return { value, source: root as JsonNode };
}

/**
 * The value JSON.parse makes of a lossless tree whose containers kept as text were parsed
 * (`parsed`), or stand for themselves (table rows left unparsed).
 */
async function plainOf(root: JsonNode, parsed: ReadonlyMap<JsonText, unknown>): Promise<unknown> {
  // A turn now and then: a long list of scalars is a node each.
  const clock = new TurnClock();
  const isBuilt = (node: JsonNode): node is JsonNode[] | Record<string, JsonNode> =>
    node !== null && typeof node === 'object' && !(node instanceof JsonText) && !(node instanceof JsonNumber);
  const leaf = (node: JsonNode): unknown =>
    node instanceof JsonText ? (parsed.get(node) ?? node) : node instanceof JsonNumber ? node.toNumber() : node;
  const walk = async (node: JsonNode[] | Record<string, JsonNode>): Promise<unknown> => {
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (const item of node) {
        out.push(isBuilt(item) ? await walk(item) : leaf(item));
        if (clock.due) await clock.pass();
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      const item = node[key]!;
      setOwn(out, key, isBuilt(item) ? await walk(item) : leaf(item));
      if (clock.due) await clock.pass();
    }
    return out;
  };
  return isBuilt(root) ? walk(root) : leaf(root);
}

/** The bytes of `chunks` in pieces of about `bytes` (consecutive small chunks joined, a large one cut). */
function* spans(chunks: readonly Buffer[], bytes: number): Generator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += bytes) {
      const piece = chunk.subarray(at, at + bytes);
      held.push(piece);
      heldBytes += piece.length;
      if (heldBytes >= bytes) {
        yield held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
        held = [];
        heldBytes = 0;
      }
    }
  }
  if (heldBytes > 0) yield held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
}

/** The body's root as `build` makes it (JSON.parse's way by default); undefined for an empty body. */
async function readChunks(chunks: readonly Buffer[], build: ValueBuilder | undefined): Promise<unknown> {
  let root: unknown;
  // Refusals of values wait for the end, as in parse-json.ts: a malformed body is a 400 first.
  const numberProblems: Array<{ loc: string[]; msg: string; type: string }> = [];
  let unstorable: Error | undefined;
  const parser = new JsonStreamParser({
    maxDepth: MAX_DEPTH,
    maxNumberChars: MAX_NUMBER_CHARS,
    scanContainer: nativeJson?.scanContainer,
    build,
    detach: () => false,
    // Containers go to JSON.parse (faster than building them here) up to 64 kB each; a larger
    // one is read piece by piece, so no single step grows with the body.
    raw: () => true,
    maxRawChars: 64 * 1024,
    onValue: (path, value) => {
      if (path.length === 0) root = value;
    },
    inspect: (text) => {
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
    for (const span of spans(chunks, DECODE_BYTES)) {
      const text = decoder.write(span);
      for (let at = 0; at < text.length;) {
        let end = Math.min(at + SLICE_CHARS, text.length);
        // A surrogate pair stays in one slice.
        if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
        feed(text.slice(at, end));
        at = end;
        await nextTurn();
      }
    }
    feed(decoder.end());
    // As body-parser: an empty body (a byte-order mark at most) is `{}`; blank text is malformed.
    if (chars === 0) return undefined;
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
