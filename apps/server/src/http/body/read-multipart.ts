// multipart/form-data bodies (file uploads), read by multer into memory with BODY_LIMIT on every
// part and on the declared length, and every multer failure answered as a 4xx: a malformed form
// (no boundary, a part without headers, a bad filename) is the client's fault, never a 500.
import type { Request, Response } from 'express';
import multer from 'multer';
import { tooLarge, unsupportedMediaType } from './body-errors.ts';

/** One file part of a multipart body. */
export interface UploadedFile {
  fieldname: string;
  buffer: Buffer;
}

export interface MultipartBody {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

const MAX_FILES = 16;
const MAX_FIELDS = 64;

export function multipartReader(limit: number): (req: Request, res: Response) => Promise<MultipartBody> {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limit, fieldSize: limit, files: MAX_FILES, fields: MAX_FIELDS, parts: MAX_FILES + MAX_FIELDS },
  }).any();
  return async (req, res) => {
    const type = req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data\s*;/i.test(type)) throw unsupportedMediaType(`Unsupported media type "${type}"; send multipart/form-data`);
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity') throw unsupportedMediaType(`Unsupported content encoding "${encoding}" on a multipart body`);
    if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge();
    await new Promise<void>((resolve, reject) => {
      upload(req, res, (err: unknown) => (err ? reject(multipartError(err)) : resolve()));
    });
    const files = ((req.files as Express.Multer.File[] | undefined) ?? []).map((f) => ({ fieldname: f.fieldname, buffer: f.buffer }));
    return { fields: { ...(req.body as Record<string, unknown>) }, files };
  };
}

function multipartError(err: unknown): Error {
  if (err instanceof multer.MulterError) {
    if (/^LIMIT_(FILE|PART|FIELD)_(SIZE|COUNT)$|^LIMIT_FIELD_VALUE$/.test(err.code)) return tooLarge();
    return Object.assign(new Error(`Malformed multipart body: ${err.message}`), { status: 400, type: 'entity.multipart', expose: true });
  }
  // busboy's parse errors (no boundary, a part without headers, a truncated body, ...).
  const message = err instanceof Error ? err.message : String(err);
  return Object.assign(new Error(`Malformed multipart body: ${message}`), { status: 400, type: 'entity.multipart', expose: true });
}
