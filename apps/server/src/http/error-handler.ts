// The last middleware: every error becomes a documented body. Validation problems → 422
// `{detail:[…]}`; domain errors → their catalogue status and `{reason, error_type}`; anything
// else is a bug → 500 with no details but the request id (its log lines carry the same).
import type { ErrorRequestHandler } from 'express';
import { isWeftError } from '@weft/core';
import { requestIdOf } from './request-id.ts';
import { toValidationDetails } from './validation-error.ts';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
  message?: string;
  headers?: Record<string, string>;
  detail?: unknown[];
}

export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, next) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    answer(err, req, res);
  } catch (failure) {
    // Writing the answer failed (in development, the response validator refuses an undocumented
    // status): never leave the client hanging; answer 500 without going through res.json again.
    req.log?.error({ err: failure, cause: err }, 'could not answer an error');
    if (res.headersSent) return void res.destroy();
    res
      .status(500)
      .type('application/json')
      .end(JSON.stringify(internalError(req)));
  }
  void next;
};

function answer(err: unknown, req: Parameters<ErrorRequestHandler>[1], res: Parameters<ErrorRequestHandler>[2]): void {
  if (isWeftError(err)) {
    res.status(err.status).json(err.toBody());
    return;
  }
  const e = (err ?? {}) as HttpLikeError;
  const status = e.status ?? e.statusCode ?? 500;
  if (status === 422 && Array.isArray(e.detail)) {
    res.status(422).json({ detail: e.detail });
  } else if (e.type === 'entity.parse.failed') {
    res.status(422).json({ detail: [{ loc: ['body'], msg: `JSON decode error: ${e.message ?? 'malformed JSON'}`, type: 'json_invalid' }] });
  } else if (e.type === 'entity.too.large' || status === 413) {
    res.status(413).json({ reason: 'Request too large', error_type: 'RequestTooLarge' });
  } else if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported' || e.type === 'media.unsupported') {
    res.status(415).json({ reason: e.message ?? 'Unsupported encoding', error_type: 'UnsupportedMediaType' });
  } else if (status === 400 && Array.isArray(e.errors)) {
    res.status(422).json({ detail: toValidationDetails(e.errors) });
  } else if (status === 415) {
    res.status(415).json({
      reason: `Unsupported media type "${req.headers['content-type'] ?? ''}"; send application/json`,
      error_type: 'UnsupportedMediaType',
    });
  } else if (status === 404) {
    res.status(404).json({ reason: `No operation at ${req.method} ${req.path}`, error_type: 'NotFound' });
  } else if (status === 405) {
    if (e.headers?.Allow) res.set('Allow', e.headers.Allow);
    res.status(405).json({ reason: `${req.method} is not allowed on ${req.path}`, error_type: 'MethodNotAllowed' });
  } else if (status >= 400 && status < 500) {
    res.status(status).json({ reason: e.message ?? 'Bad request', error_type: 'BadRequest' });
  } else {
    req.log?.error({ err }, 'unhandled error');
    res.status(500).json(internalError(req));
  }
}

/** A bug's answer: no details, but the request id to quote (its log lines carry the same). */
function internalError(req: Parameters<ErrorRequestHandler>[1]): Record<string, string> {
  return { reason: 'Internal server error', error_type: 'InternalError', request_id: requestIdOf(req) };
}
