// Builds the Express app from the spec. One dispatcher finds the operation with a map lookup
// (@weft/types' operation-matcher.ts), then: authenticate (the operation's scheme, before any
// byte of the body is read) → read the body as its mode says (http/body/) →
// express-openapi-validator against the same spec (all errors, 422 `{detail:[…]}`) → the typed
// handler of the operationId → write its answer → the error handler. No business rule lives here.
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { createBodyReader } from './http/body/read-body.ts';
import { compose } from './http/compose.ts';
import { corsPolicy } from './http/cors.ts';
import { errorHandler } from './http/error-handler.ts';
import { warmUpValidators } from './http/warm-up.ts';
import { createDispatcher } from './http/dispatch.ts';
import { webApp } from './http/web-app.ts';
import { lifecycleGuard } from './http/lifecycle.ts';
import { requestDeadlines } from './http/deadline.ts';
import { requestIdOf, requestIds } from './http/request-id.ts';
import type { Limiter } from './http/rate-limit.ts';
import { operations } from './http/spec.ts';
import { validatorOptions } from './http/validator-options.ts';
import { allHandlers, type Deps } from './handlers/index.ts';

export interface AppOptions {
  bodyLimit: number;
  logBodyLimit: number;
  validateResponses: boolean;
  logger: Logger;
  limiter?: Limiter | undefined;
  /** Weft Studio's built files; unset: no app, unknown paths are 404. */
  webDir?: string | undefined;
  /** REQUEST_TIMEOUT: the deadline of every request (http/deadline.ts). */
  requestTimeoutMs: number;
  /** CORS_ORIGINS (http/cors.ts); unset or empty: no CORS headers. */
  corsOrigins?: readonly string[] | undefined;
  /** TRUST_PROXY: Express's `trust proxy`; unset or false: the peer's address is the client's. */
  trustProxy?: number | string | false | undefined;
}

/** pino's request line, its remoteAddress the client's as TRUST_PROXY says (Express's req.ip). */
function clientAddress(req: { remoteAddress?: string; raw: { ip?: string } }) {
  req.remoteAddress = req.raw.ip ?? req.remoteAddress;
  return req;
}

/** The app, its validators compiled (http/warm-up.ts), ready to listen. */
export async function createApp(deps: Deps, opts: AppOptions): Promise<Express> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // req.ip (logs) comes from X-Forwarded-For only through proxies the operator named.
  app.set('trust proxy', opts.trustProxy ?? false);
  app.use(requestIds);
  app.use(deps.metrics.observeRequests);
  app.use(requestDeadlines(opts.requestTimeoutMs));
  // At LOG_LEVEL=silent nothing is ever logged, yet pino-http would still build a child logger
  // with redacted request bindings for every request, a visible share of a small read's CPU.
  if (opts.logger.isLevelEnabled('fatal')) {
    app.use(
      pinoHttp({
        logger: opts.logger,
        // The id requestIds gave the request (adopted or new), on every line of it.
        genReqId: requestIdOf,
        // API keys travel in this header: never let them reach a log line.
        redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
        autoLogging: { ignore: (req) => req.url === '/health' },
        // The client's address as TRUST_PROXY says (Express's req.ip), not always the proxy's.
        serializers: { req: clientAddress },
      }),
    );
  }
  // Before the lifecycle guard: a browser's preflight is answered while starting or draining too.
  const corsHandler = corsPolicy(opts.corsOrigins ?? [], operations);
  if (corsHandler) app.use(corsHandler);

  const validator = (allErrors: boolean, validateResponses: boolean) =>
    compose(
      OpenApiValidator.middleware(validatorOptions(allErrors, validateResponses)),
      // An answer that breaks the spec (response validation) becomes the error handler's 500.
      (err, req, res) => errorHandler(err, req, res, () => undefined),
    );
  // ajv's cost for collecting every error grows with the square of their number (a large batch of
  // bad items took most of a minute). So a request is validated up to its first problem; only a
  // small invalid body is validated again to list all its problems.
  const validate = validator(false, opts.validateResponses);
  const validateAll = validator(true, false);

  // Liveness, health and readiness stay answerable while starting or draining (they say so);
  // everything else new gets 503.
  app.use(lifecycleGuard(deps.lifecycle, (path) => path === '/live' || path === '/health' || path === '/ready'));
  app.use(
    createDispatcher({
      operations,
      handlers: allHandlers(deps),
      auth: deps.auth,
      readBody: createBodyReader({ body: opts.bodyLimit, stream: opts.logBodyLimit }),
      limiter: opts.limiter,
      validate,
      validateAll,
      fallback: opts.webDir === undefined ? undefined : webApp(opts.webDir),
    }),
  );
  app.use(errorHandler);
  await warmUpValidators(app, [validate, validateAll], operations);
  return app;
}
