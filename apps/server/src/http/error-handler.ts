// The last middleware: every error becomes a documented body. Validation problems → 422
// `{detail:[…]}`; catalogue errors → their status, headers and `{reason, error_type}`; a database
// that cannot be used → 503 (507 when it has no room), whichever code path met it; anything else
// is a bug → 500 with no details but the request id (its log lines carry the same). An answer
// sent before the body was read closes the connection (early-answer.ts). The operation decides
// the shape: one that says `x-weft-errors: openai` gets the same errors in OpenAI's shape
// (openai-errors.ts), whichever middleware refused it (lifecycle, deadline, auth, limits, body).
import type { ErrorRequestHandler, Request, Response } from 'express';
import {
  badRequest,
  internalError,
  isWeftError,
  methodNotAllowed,
  noOperation,
  tooLarge,
  unsupportedMediaType,
  validationDetail,
  type WeftError,
} from '@weft/core';
import { isRouterError } from '@weft/router';
import { availabilityError } from '@weft/store';
import { matchOperation } from '@weft/types/spec';
import { closeIfBodyUnread } from './early-answer.ts';
import { requestIdOf } from './request-id.ts';
import { openAIValidationError, sendOpenAIError, sendOpenAIValidation } from './openai-errors.ts';
import { operations } from './spec.ts';
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
    closeIfBodyUnread(req, res);
    answer(err, req, res);
  } catch (failure) {
    // Writing the answer failed (in development, the response validator refuses an undocumented
    // status): never leave the client hanging; answer 500 without going through res.json again.
    req.log?.error({ err: failure, cause: err }, 'could not answer an error');
    if (res.headersSent) return void res.destroy();
    res
      .status(500)
      .type('application/json')
      .end(JSON.stringify(internalError(requestIdOf(req)).toBody()));
  }
  void next;
};

function answer(err: unknown, req: Request, res: Response): void {
  if (errorShapeOf(req) === 'openai') {
    const invalid = openAIValidationError(err);
    if (invalid) sendOpenAIValidation(res, invalid);
    else sendOpenAIError(res, isRouterError(err) ? err : catalogued(err, req));
    return;
  }
  const e = (err ?? {}) as HttpLikeError;
  const status = e.status ?? e.statusCode ?? 500;
  if (status === 422 && Array.isArray(e.detail)) {
    res.status(422).json({ detail: e.detail });
  } else if (e.type === 'entity.parse.failed') {
    res.status(422).json({ detail: [validationDetail(['body'], `JSON decode error: ${e.message ?? 'malformed JSON'}`, 'json_invalid')] });
  } else if (status === 400 && Array.isArray(e.errors)) {
    res.status(422).json({ detail: toValidationDetails(e.errors) });
  } else {
    send(res, catalogued(err, req));
  }
}

/** The shape of the errors of the operation the request was for (the seed's when none matched). */
function errorShapeOf(req: Request) {
  const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
  return matchOperation(operations, req.method, path)?.errorShape ?? 'weft';
}

/** The catalogue's error for anything that is not a validation problem. */
function catalogued(err: unknown, req: Request): WeftError {
  if (isWeftError(err)) {
    if (err.status === 503 || err.status === 507) logUnavailable(req, err, err.cause);
    return err;
  }
  const e = (err ?? {}) as HttpLikeError;
  const status = e.status ?? e.statusCode ?? 500;
  if (e.type === 'entity.too.large' || status === 413) return tooLarge();
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported' || e.type === 'media.unsupported')
    return unsupportedMediaType(e.message ?? 'Unsupported encoding');
  if (status === 415) return unsupportedMediaType(`Unsupported media type "${req.headers['content-type'] ?? ''}"; send application/json`);
  if (status === 404) return noOperation(`No operation at ${req.method} ${req.path}`);
  if (status === 405) return methodNotAllowed(`${req.method} is not allowed on ${req.path}`, e.headers?.Allow ?? '');
  if (status >= 400 && status < 500) return badRequest(status === 406 || status === 408 ? status : 400, e.message ?? 'Bad request');
  const unavailable = availabilityError(err);
  if (unavailable) {
    logUnavailable(req, unavailable, err);
    return unavailable;
  }
  req.log?.error({ err }, 'unhandled error');
  return internalError(requestIdOf(req));
}

function send(res: Response, err: WeftError): void {
  for (const [name, value] of Object.entries(err.headers)) if (value !== '') res.setHeader(name, value);
  res.status(err.status).json(err.toBody());
}

/** A 5xx that is not a bug names its cause in the log, the database's own error included. */
function logUnavailable(req: Request, err: WeftError, cause: unknown): void {
  req.log?.warn({ err: cause ?? err, error_type: err.errorType }, err.message);
}
