// Reads a request body's bytes once for every mode that reads bytes: the media type and charset
// are checked before anything is read (415), the body is inflated as its Content-Encoding says,
// and the limit counts the INFLATED bytes (413), so a small compressed bomb costs no more than the
// limit. Bytes and limits go through raw-body and content-type, the libraries Express's own body
// parsers use.
import type { IncomingMessage } from 'node:http';
import { pipeline, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { parse as parseContentType, type ContentType } from 'content-type';
import getRawBody from 'raw-body';
import { corruptBody, tooLarge, unsupportedCharset, unsupportedEncoding, unsupportedMediaType } from './body-errors.ts';

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

/** Checks that the body is `application/json` in UTF-8 (or no charset, which JSON defines as UTF-8). */
export function requireJsonMediaType(req: IncomingMessage): void {
  const header = req.headers['content-type'];
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

/** The whole body, inflated, at most `limit` bytes after inflating. */
export async function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  const inflate = INFLATE[encoding];
  if (!inflate && encoding !== 'identity') throw unsupportedEncoding(encoding);
  if (!inflate) {
    // The declared length is checked before a byte is read (raw-body answers 413 at once).
    return getRawBody(req, { limit, length: req.headers['content-length'] }).catch((err: unknown) => {
      throw mapRawBodyError(err);
    });
  }
  const inflated = inflate();
  // pipeline, not pipe: a client going away must end the inflated stream too.
  pipeline(req, inflated, () => {});
  // raw-body stops reading (and we stop inflating) as soon as the limit is crossed.
  try {
    return await getRawBody(inflated, { limit });
  } catch (err) {
    inflated.destroy();
    // raw-body's own errors carry a `type`; anything else came from zlib: the body is corrupt.
    if ((err as { type?: unknown }).type === undefined) throw corruptBody(encoding);
    throw mapRawBodyError(err);
  }
}

/**
 * The whole body as the chunks it arrived in, inflated, at most `limit` bytes after inflating: for
 * bodies parsed piece by piece (64 MB+), which a single Buffer would copy once more at the end.
 * The same checks and errors as readBytes.
 */
export async function readChunks(req: IncomingMessage, limit: number): Promise<Buffer[]> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  const inflate = INFLATE[encoding];
  if (!inflate && encoding !== 'identity') throw unsupportedEncoding(encoding);
  if (!inflate && Number(req.headers['content-length']) > limit) throw tooLarge();
  const inflated = inflate?.();
  if (inflated) pipeline(req, inflated, () => {});
  const source = inflated ?? req;
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > limit) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (err) {
    inflated?.destroy();
    if ((err as { type?: unknown }).type === 'entity.too.large') throw err;
    if (inflated) throw corruptBody(encoding);
    throw err; // the client went away
  }
  return chunks;
}

function mapRawBodyError(err: unknown): unknown {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return tooLarge();
  return err; // request.aborted and friends keep their status (400) and type
}

/**
 * After a refusal, reads what is left of the body without keeping it (as body-parser does), so
 * the client sees the answer instead of a reset while it is still sending.
 */
export async function discardRest(req: IncomingMessage): Promise<void> {
  if (req.readableEnded || req.destroyed) return;
  req.resume();
  await new Promise<void>((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
    req.once('error', () => resolve());
  });
}
