// Reads a request body's bytes once for every mode that reads bytes: the media type and charset
// are checked before anything is read (415), the body is inflated as its Content-Encoding says,
// and the limit counts the INFLATED bytes (413), so a small compressed bomb costs no more than the
// limit. Media types through content-type, as Express's own body parsers; inflating through zlib.
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { parse as parseContentType, type ContentType } from 'content-type';
import { aborted, corruptBody, tooLarge, unsupportedCharset, unsupportedEncoding, unsupportedMediaType } from './body-errors.ts';

const INFLATE: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** True when the request carries a body at all (as type-is decides: a length or chunked encoding). */
export function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')
  );
}

/**
 * Checks that the body is `application/json` in UTF-8 (or no charset, which JSON defines as UTF-8).
 * A body with no Content-Type header at all is JSON: the Weave Python SDK's HTTP binding sends its
 * JSON that way. It is then marked as JSON, so the
 * validator reads it as every JSON body. Any other media type is refused.
 */
export function requireJsonMediaType(req: IncomingMessage): void {
  const header = req.headers['content-type'];
  if (header === undefined) {
    req.headers['content-type'] = 'application/json';
    return;
  }
  let parsed: ContentType;
  try {
    parsed = parseContentType(header ?? '');
  } catch {
    throw unsupportedMediaType(`Unsupported media type "${header ?? ''}"; send application/json`);
  }
  if (parsed.type !== 'application/json') throw unsupportedMediaType(`Unsupported media type "${header ?? ''}"; send application/json`);
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw unsupportedCharset(charset);
}

/**
 * The body's media type, one of `accepted` (415 otherwise; a charset other than UTF-8 too). A
 * body without a Content-Type has none: refused, since the bytes could be either.
 */
export function requireMediaType(req: IncomingMessage, accepted: readonly string[]): string {
  const header = req.headers['content-type'];
  const refuse = () => unsupportedMediaType(`Unsupported media type "${header ?? ''}"; send ${accepted.join(' or ')}`);
  let parsed: ContentType;
  try {
    parsed = parseContentType(header ?? '');
  } catch {
    throw refuse();
  }
  if (!accepted.includes(parsed.type)) throw refuse();
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw unsupportedCharset(charset);
  return parsed.type;
}

/**
 * The whole body as the chunks it arrived in, inflated, at most `limit` bytes after inflating (a
 * declared length past it is refused before a byte is read): no single Buffer copies it all once
 * more, and the parsers read it a slice at a time. Errors as readEachChunk's.
 */
export async function readChunks(req: IncomingMessage, limit: number): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  await readEachChunk(req, limit, (chunk) => void chunks.push(chunk));
  return chunks;
}

/**
 * The one reading loop: hands each inflated chunk to `take`; while a promise `take` returned is
 * pending the source is paused (so a slow `take`, a disk write, holds the client back instead of
 * piling chunks up in memory). Errors: 415 for an unknown encoding, 413 past the limit, 400 for a
 * corrupt compressed body or an aborted request. When `take` fails, the rest of the body is still
 * read (counted, not kept) and then its error thrown: the streams stay whole, so the client gets
 * the answer, not a reset. Listeners rather than the stream's async iterator: every JSON request
 * comes through here, and the iterator's promise per chunk and its end-of-stream watcher were a
 * visible share of a small read's CPU (BENCHMARKS.md).
 */
export function readEachChunk(req: IncomingMessage, limit: number, take: (chunk: Buffer) => void | Promise<void>): Promise<void> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  const inflate = INFLATE[encoding];
  if (!inflate && encoding !== 'identity') return Promise.reject(unsupportedEncoding(encoding));
  if (!inflate && Number(req.headers['content-length']) > limit) return Promise.reject(tooLarge());
  const inflated = inflate?.();
  // Piped, not pipeline(): a refusal must not destroy the request (and with it the socket the
  // answer goes out on); the rest of the body is left to the answer's close (early-answer.ts).
  if (inflated) {
    req.pipe(inflated);
    // pipe() does not pass on a client that went away mid-body: the inflating stream fails too.
    req.once('close', () => {
      if (!req.complete) inflated.destroy(aborted());
    });
  }
  const source: Readable = inflated ?? req;
  return new Promise<void>((resolve, reject) => {
    let bytes = 0;
    let failure: { err: Error } | undefined;
    let taking: Promise<void> | undefined;
    let settled = false;
    // Settles once a pending take is done, so that no take is still writing when the caller
    // hears of the outcome (and, say, closes the file the take writes to).
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      source.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      const outcome = err === undefined ? undefined : refusal(err);
      const finish = () => {
        if (outcome) reject(outcome);
        else if (failure) reject(failure.err);
        else resolve();
      };
      if (taking) void taking.then(finish);
      else finish();
    };
    /** The stream failed: left unread and paused (early-answer.ts reads the rest), as an iterator that stopped would. */
    const refusal = (err: Error): Error => {
      source.pause();
      if (inflated) {
        req.unpipe(inflated);
        inflated.destroy();
      }
      if ((err as { type?: unknown }).type === 'entity.too.large') return err;
      // zlib's own errors carry a numeric errno (Z_DATA_ERROR, brotli's ERR__ERROR_FORMAT_…).
      if (inflated && typeof (err as { errno?: unknown }).errno === 'number') return corruptBody(encoding);
      return aborted(); // the client went away (its answer is never read)
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) return settle(tooLarge());
      if (failure) return;
      let result: void | Promise<void>;
      try {
        result = take(chunk);
      } catch (err) {
        failure = { err: asError(err) };
        return;
      }
      if (!result) return;
      source.pause();
      taking = result.then(
        () => undefined,
        (err: unknown) => void (failure ??= { err: asError(err) }),
      );
      void taking.then(() => {
        taking = undefined;
        if (!settled) source.resume();
      });
    };
    const onEnd = () => settle();
    const onError = (err: Error) => settle(err);
    // Closed before its end: the client went away, or a stream was destroyed without an error.
    const onClose = () => {
      if (!source.readableEnded) settle(aborted());
    };
    source.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
