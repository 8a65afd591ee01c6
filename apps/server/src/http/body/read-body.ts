// The one body pipeline: each operation's body is read as its spec says (x-weft-body) and handed
// to its handler in exactly one representation. Media types (415), charsets, inflating, limits
// (413) and malformed bodies (400/422) are handled here once for every mode.
import type { Request, Response } from 'express';
import { validationDetail, type JsonNode } from '@weft/core';
import type { SpecOperation } from '@weft/types/spec';
import { unprocessable } from './body-errors.ts';
import { bodyText, parseLosslessJson, parseStrictJson } from './parse-json.ts';
import { ONE_PIECE_MAX_BYTES, parseJsonChunks, parseLosslessJsonChunks } from './parse-json-chunks.ts';
import type { PathKey } from './json-stream-parser.ts';
import { hasBody, readChunks, requireJsonMediaType, requireMediaType } from './read-bytes.ts';
import { multipartReader, type UploadedFile } from './read-multipart.ts';
import { emptyBody, spoolBody, type SpooledBody } from './spooled-body.ts';

export interface BodyLimits {
  /** BODY_LIMIT: every operation but the trajectory log (multipart uploads included). */
  body: number;
  /** LOG_BODY_LIMIT: operations whose body is streamed (the trajectory log). */
  stream: number;
}

/**
 * What reading gave, by the operation's body mode (x-weft-body). JSON, lossless and multipart
 * bodies are put in `req.body`, where the validator checks them (and fills defaults) before the
 * handler gets them; the other modes hand over what was read. `size`: bytes read, after inflating.
 */
export type ReadBody =
  | { mode: 'none'; size: 0 }
  | { mode: 'json'; size: number }
  /** The tree with the exact number lexemes, which digests are computed from. */
  | { mode: 'lossless'; size: number; source: JsonNode }
  | { mode: 'multipart'; size: number; files: UploadedFile[] }
  /** The whole body, past its first MB in a temporary file; whoever reads the body closes it. */
  | { mode: 'stream'; size: number; spooled: SpooledBody }
  /** The body as one chunk, and which of the operation's media types it is. */
  | { mode: 'bytes'; size: number; chunks: [Buffer]; mediaType: string };

export type BodyReader = (
  req: Request,
  res: Response,
  op: Pick<SpecOperation, 'bodyMode' | 'requestMediaTypes' | 'requiresBody'>,
  /** A lossless body's items that may stay as their text (long-lists.ts itemsKeptAsText). */
  keptAsText?: (path: readonly PathKey[]) => boolean,
) => Promise<ReadBody>;

/** A JSON operation's request without a body, as Weave's (FastAPI's) servers answer it. */
const missingBody = () => unprocessable([validationDetail(['body'], 'Field required', 'missing')]);

export function createBodyReader(limits: BodyLimits): BodyReader {
  const readMultipart = multipartReader(limits.body);
  /** A JSON body's bytes; undefined when there is none and none is required (422 if one is). */
  const readJson = async (req: Request, op: Pick<SpecOperation, 'requiresBody'>) => {
    if (!hasBody(req)) {
      if (op.requiresBody) throw missingBody();
      return undefined;
    }
    requireJsonMediaType(req);
    const chunks = await readChunks(req, limits.body);
    const size = chunks.reduce((n, c) => n + c.length, 0);
    if (size === 0 && op.requiresBody) throw missingBody();
    return { chunks, size };
  };
  // A refusal leaves the rest of the body unread: the answer closes the connection (early-answer.ts).
  return async (req, res, op, keptAsText) => {
    switch (op.bodyMode) {
      case 'none':
        return { mode: 'none', size: 0 };
      case 'multipart': {
        const { fields, files } = await readMultipart(req, res);
        // The schema's binary parts are present as empty strings, as the validator expects.
        for (const f of files) fields[f.fieldname] = '';
        req.body = fields;
        return { mode: 'multipart', size: files.reduce((n, f) => n + f.buffer.length, 0), files };
      }
      case 'stream': {
        if (hasBody(req)) requireJsonMediaType(req);
        // Read whole before the store starts: a slow upload must never hold a database transaction.
        // Spooled to a file rather than held: a 64 MB log would otherwise sit in memory whole.
        const spooled = hasBody(req) ? await spoolBody(req, limits.stream) : emptyBody();
        return { mode: 'stream', size: spooled.size, spooled };
      }
      case 'bytes': {
        // Bytes in one of the operation's media types (OTLP: protobuf or JSON), decoded by its handler.
        const mediaType = requireMediaType(req, op.requestMediaTypes);
        const chunks = await readChunks(req, limits.body);
        const size = chunks.reduce((n, c) => n + c.length, 0);
        // One buffer (decoders need contiguous bytes), and the chunks let go now: otherwise the
        // body would be held twice for the whole request (bench: otel-ingest, peak RSS).
        return { mode: 'bytes', size, chunks: [chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)], mediaType };
      }
      case 'json': {
        const read = await readJson(req, op);
        if (!read) return { mode: 'json', size: 0 };
        const { chunks, size } = read;
        // Large bodies a slice at a time, so that no request holds the event loop for long.
        req.body = size > ONE_PIECE_MAX_BYTES ? await parseJsonChunks(chunks) : parseStrictJson(bodyText(Buffer.concat(chunks, size)));
        return { mode: 'json', size };
      }
      case 'lossless': {
        // A digest needs a body: a lossless operation without one is refused whatever the spec
        // says of requiring it.
        const read = await readJson(req, { requiresBody: true });
        if (!read) throw missingBody();
        const { chunks, size } = read;
        if (size <= ONE_PIECE_MAX_BYTES) {
          const text = bodyText(Buffer.concat(chunks, size));
          req.body = parseStrictJson(text);
          return { mode: 'lossless', size, source: parseLosslessJson(text) };
        }
        // One sliced pass: the tree the digests are computed from, and the plain value (validated,
        // read by the handler) derived from it; items kept as text stand in it as they are.
        const { value, source } = await parseLosslessJsonChunks(chunks, keptAsText);
        req.body = value;
        return { mode: 'lossless', size, source };
      }
    }
  };
}
