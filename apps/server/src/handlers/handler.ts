// The typed shape of a handler, derived from the spec: what operation K receives (its body as its
// body mode delivers it, path and query parameters, the caller) and what it must answer (its 200
// body). `Handlers` maps every operationId to its handler, so a missing handler or an answer with a
// wrong field does not compile (see handler.test-d.ts). Handlers hold HTTP policy only.
import type { Request, Response } from 'express';
import type { Catalogue, JsonNode } from '@weft/core';
import type { Router, RouterLimits } from '@weft/router';
import type { Store } from '@weft/store';
import type {
  AuthOf,
  BodyModeOf,
  OperationId,
  PathParamsOf,
  QueryParamsOf,
  RequestBodyOf,
  SuccessBodyOf,
  SuccessMediaTypeOf,
} from '@weft/types';
import type { Authenticator, Principal } from '../auth/index.ts';
import type { UploadedFile } from '../http/body/read-multipart.ts';
import type { SpooledBody } from '../http/body/spooled-body.ts';
import type { Lifecycle } from '../http/lifecycle.ts';
import type { Metrics } from '../http/metrics.ts';
import type { Limiter } from '../http/rate-limit.ts';
import type { CallRecorder } from '../router/record-call.ts';

/** Everything a handler may use; injected so tests can build an app around any store. */
export interface Deps {
  store: Store;
  auth: Authenticator;
  catalogue: Catalogue;
  version: string;
  /** Whether the server is shutting down (health answers 503 `draining`). */
  lifecycle: Lifecycle;
  /** What GET /metrics answers, and what counts requests (http/metrics.ts). */
  metrics: Metrics;
  /** The rate limits, when set: /ready reports whether their Redis answers. */
  limiter?: Limiter | undefined;
  /**
   * The inference router in use, read on every request (a reload swaps it); undefined when no
   * router file is configured: chat and embeddings answer 404 for any model, GET /models the
   * shipped catalogue.
   */
  router: () => Router | undefined;
  /** Records every router request as a call (router/record-call.ts). */
  recorder: CallRecorder;
  /** The router's limits (ROUTER_CONFIG's `limits`): `admit` before routing a request, `account` after its answer. */
  routerLimits?: RouterLimits | undefined;
}

/**
 * What each body mode (x-weft-body) hands a handler; `J` is the operation's JSON body, `F` its form
 * fields. The dispatcher builds it from what the body reader gave (http/body/read-body.ts).
 */
export interface BodyByMode<J, F> {
  none: { body: undefined };
  json: { body: J };
  /** Digest operations: the parsed body and its tree with the exact number lexemes. */
  lossless: { body: J; source: JsonNode };
  /** The whole body (inflated, within the limit), read back a MB at a time and parsed piece by piece by the handler. */
  stream: { body: SpooledBody };
  /** The whole body (inflated, within the limit) and which of the operation's media types it is. */
  bytes: { body: Buffer[]; mediaType: string };
  /** The text fields of the form, and its file parts. */
  multipart: { body: F; files: UploadedFile[] };
}

type BodyFor<K extends OperationId> = BodyByMode<RequestBodyOf<K>, Omit<RequestBodyOf<K>, 'file'>>[BodyModeOf<K>];

export type OperationInput<K extends OperationId> = BodyFor<K> & {
  params: PathParamsOf<K>;
  query: QueryParamsOf<K>;
  /** The authenticated caller (operations that take credentials). */
  principal: AuthOf<K> extends 'none' ? undefined : Principal;
  /** The request, for headers and logging. */
  http: Request;
};

/** What K answers with 200: JSON Lines are written line by line, bytes as octet-stream. */
export type AnswerOf<K extends OperationId> =
  SuccessMediaTypeOf<K> extends 'application/jsonl'
    ? AsyncIterable<SuccessBodyOf<K>> | Iterable<SuccessBodyOf<K>>
    : SuccessMediaTypeOf<K> extends 'application/octet-stream'
      ? Uint8Array
      : SuccessBodyOf<K>;

/** Returned by a handler that wrote its answer itself (e.g. 304 Not Modified). */
export const ANSWERED: unique symbol = Symbol('answered');

export type Handler<K extends OperationId> = (input: OperationInput<K>, res: Response) => Promise<AnswerOf<K> | typeof ANSWERED>;

/** One handler per operationId of the spec: one operationId = one handler key = one store method. */
export type Handlers = { [K in OperationId]: Handler<K> };

/** Types a group of handlers by the spec without listing their operationIds again. */
export function handlers<H extends Partial<Handlers>>(group: H): { [K in keyof H & OperationId]: Handler<K> } {
  return group as { [K in keyof H & OperationId]: Handler<K> };
}
