// The one middleware in front of every operation. The operation is found with one map lookup
// (literal paths) or a short list of templates (operation-matcher.ts), built once at start, instead
// of Express scanning a layer per route on every request. Per request: authenticate → read the
// body → validate → the typed handler → write its answer as the spec's media type says.
import type { Request, RequestHandler, Response } from 'express';
import { forbidden, methodNotAllowed, noOperation, rateLimited, unauthorized } from '@weft/core';
import type { OperationId } from '@weft/types';
import { createOperationMatcher, grants, type BodyMode, type SpecOperation } from '@weft/types/spec';
import type { Authenticator } from '../auth/index.ts';
import { forOperation, highestLevel } from '../auth/key-scope.ts';
import { schemeFor } from '../auth/scheme-for.ts';
import type { Principal } from '../auth/index.ts';
import { ANSWERED, type BodyByMode, type Handlers } from '../handlers/index.ts';
import type { BodyReader, ReadBody } from './body/read-body.ts';
import type { SpooledBody } from './body/spooled-body.ts';
import type { PathKey } from './body/json-stream-parser.ts';
import type { Limiter } from './rate-limit.ts';
import { sliceJsonAnswers } from './json-answer.ts';
import { writeJsonLines } from './json-lines.ts';
import { itemsKeptAsText, listPaths, validateLongLists, type ListPath } from './long-lists.ts';

export interface DispatcherParts {
  operations: readonly SpecOperation[];
  handlers: Handlers;
  auth: Authenticator;
  readBody: BodyReader;
  /** Rate limits per API key; undefined when none is set. */
  limiter: Limiter | undefined;
  /** Stops at the first problem: cost linear in the body. */
  validate: (req: Request, res: Response) => Promise<void>;
  /** Lists every problem; run only on small invalid bodies (see ALL_ERRORS_MAX_BYTES). */
  validateAll: (req: Request, res: Response) => Promise<void>;
  /** For paths no operation has (Weft Studio's files and pages); its `next()` is the 404. */
  fallback?: RequestHandler;
}

/** Invalid bodies up to this size get every problem listed; larger ones their first. */
export const ALL_ERRORS_MAX_BYTES = 16 * 1024;

/** Any operation's input before the operation is known: what the dispatcher builds from a ReadBody. */
type AnyInput = BodyByMode<unknown, unknown>[BodyMode] & {
  params: object;
  query: object;
  principal: Principal | undefined;
  http: Request;
};

/**
 * Method syntax, so that every typed handler fits: `Handlers` already pairs each operationId with
 * its handler's input type, and the body mode a handler is given is the one its operation
 * declares (the same `op.bodyMode` picks both).
 */
interface AnyHandler {
  run(input: AnyInput, res: Response): Promise<unknown>;
}

const isOperationOf = (handlers: Handlers, id: string): id is OperationId => Object.hasOwn(handlers, id);

/** The handler's input from what was read; JSON, lossless and form bodies as the validator left them. */
function inputOf(read: ReadBody, req: Request, principal: Principal | undefined): AnyInput {
  const common = { params: req.params, query: req.query, principal, http: req };
  switch (read.mode) {
    case 'none':
      return { ...common, body: undefined };
    case 'json':
      return { ...common, body: req.body as unknown };
    case 'lossless':
      return { ...common, body: req.body as unknown, source: read.source };
    case 'multipart':
      return { ...common, body: req.body as unknown, files: read.files };
    case 'stream':
      return { ...common, body: read.spooled };
    case 'bytes':
      return { ...common, body: read.chunks, mediaType: read.mediaType };
  }
}

interface Route {
  op: SpecOperation;
  handler: AnyHandler;
  /** The lists of its JSON body, validated a slice at a time when long (long-lists.ts). */
  lists: ListPath[];
  /** A lossless body's items left as their text (long-lists.ts itemsKeptAsText). */
  keptAsText: ((path: readonly PathKey[]) => boolean) | undefined;
  /** `objCreate (POST /obj/create)`: how a refusal names the operation. */
  label: string;
}

export function createDispatcher({
  operations,
  handlers,
  auth,
  readBody,
  limiter,
  validate,
  validateAll,
  fallback,
}: DispatcherParts): RequestHandler {
  const routes: Route[] = [];
  const missing: string[] = [];
  for (const op of operations) {
    const lists = op.bodyMode === 'json' || op.bodyMode === 'lossless' ? listPaths(op) : [];
    if (!isOperationOf(handlers, op.operationId)) missing.push(op.operationId);
    else
      routes.push({
        op,
        handler: { run: handlers[op.operationId] },
        lists,
        keptAsText: op.bodyMode === 'lossless' ? itemsKeptAsText(lists) : undefined,
        label: `${op.operationId} (${op.method.toUpperCase()} ${op.path})`,
      });
  }
  if (missing.length > 0) throw new Error(`operations without a handler: ${missing.join(', ')}`);
  const matcher = createOperationMatcher(routes.map((r) => ({ method: r.op.method, path: r.op.path, route: r })));

  return async (req, res, next) => {
    let spooled: SpooledBody | undefined;
    try {
      const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
      const found = matcher.match(req.method, path);
      if (found.kind === 'not-found') {
        if (!fallback) throw noOperation(`No operation at ${req.method} ${req.path}`);
        // Only after every operation missed: an operation always wins over an app route.
        fallback(req, res, (err?: unknown) => next(err ?? noOperation(`No operation at ${req.method} ${req.path}`)));
        return;
      }
      if (found.kind === 'method-not-allowed')
        throw methodNotAllowed(`${req.method} is not allowed on ${req.path}`, found.allowed.join(', '));
      const { op, handler, lists, keptAsText, label } = found.operation.route;
      req.params = found.params;
      // For the metrics (http/metrics.ts), which see every answer.
      res.locals.operationId = op.operationId;

      let principal;
      const scheme = schemeFor(op.schemes, req.headers.authorization);
      if (scheme) {
        // Before any byte of the body is read: an anonymous client cannot make the server parse it.
        const result = await auth.authenticate(req.headers.authorization, scheme);
        if (!result.ok) throw unauthorized(result.reason, result.wwwAuthenticate);
        principal = result.principal;
        // What the operation declares it needs (x-weft-access), against the most the key may do;
        // a key with levels per entity is checked again on the entity the operation touches.
        const most = principal.entityScopes ? highestLevel(principal) : principal.scope;
        if (!grants(most, op.access))
          throw forbidden(`This API key has ${most === principal.scope ? '' : 'at most '}${most} scope; ${label} needs ${op.access}`);
        principal = forOperation(principal, { name: label, access: op.access });
        const refusal = limiter && (await limiter.take(principal.keyId, op.rateClass));
        if (refusal) throw rateLimited(refusal.reason, refusal.retryAfterSec);
      }
      const read = await readBody(req, res, op, keptAsText);
      if (read.mode === 'stream') spooled = read.spooled;
      res.locals.bodyBytes = read.size;
      // HEAD is a GET without a body (Node drops the body: it knew the method when the response
      // was made); the spec documents the GET, so that is what is validated.
      if (req.method === 'HEAD') req.method = 'GET';
      // Before the validator wraps res.json, so a sliced answer is still validated when asked.
      sliceJsonAnswers(res);
      const restore = lists.length > 0 ? await validateLongLists(req, lists) : undefined;
      try {
        await validate(req, res);
      } catch (err) {
        if ((err as { status?: unknown }).status === 400 && read.size <= ALL_ERRORS_MAX_BYTES) await validateAll(req, res);
        throw err;
      } finally {
        restore?.();
      }

      const answer = await handler.run(inputOf(read, req, principal), res);
      if (answer === ANSWERED) return;
      if (op.successMediaType === 'application/jsonl') await writeJsonLines(res, answer as AsyncIterable<unknown>);
      else if (answer instanceof Uint8Array)
        res.type(op.successMediaType ?? 'application/octet-stream').send(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength));
      else res.json(answer);
    } catch (err) {
      next(err);
    } finally {
      // A spooled body's file is let go whatever happened: answered, refused after the read
      // (validation, auth of the model), or failed.
      await spooled?.close();
    }
  };
}
