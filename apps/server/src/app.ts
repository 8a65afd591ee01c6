// Builds the Express app from the spec: authentication → body parsing → validation → the
// handler of the operationId → error mapping. No business rule lives here.
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { authenticate } from './http/authenticate.ts';
import { errorHandler } from './http/error-handler.ts';
import { streamLogBody } from './http/log-body-reader.ts';
import { spec, specOperations } from './http/spec-operations.ts';
import { allHandlers, type Deps } from './handlers/index.ts';

export interface AppOptions {
  bodyLimit: number;
  logBodyLimit: number;
  validateResponses: boolean;
  logger: Logger;
}

export function createApp(deps: Deps, opts: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // At LOG_LEVEL=silent nothing is ever logged, yet pino-http would still build a child logger
  // with redacted request bindings for every request: ~8% of a call/read (see BENCHMARKS.md).
  if (opts.logger.isLevelEnabled('fatal')) {
    app.use(
      pinoHttp({
        logger: opts.logger,
        // API keys travel in this header: never let them reach a log line.
        redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
        autoLogging: { ignore: (req) => req.url === '/health' },
      }),
    );
  }

  const operations = specOperations();
  const handlers = allHandlers(deps);
  // The trajectory log's route, as the spec names it (see the streaming note below).
  const logOp = operations.find((op) => op.operationId === 'modelLog');
  if (!logOp) throw new Error('the spec has no modelLog operation');
  const logPathPattern = new RegExp(`^${logOp.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
  const missing = operations.filter((op) => !handlers[op.operationId]).map((op) => op.operationId);
  if (missing.length > 0) throw new Error(`operations without a handler: ${missing.join(', ')}`);

  for (const op of operations) {
    if (op.scheme) app[op.method](op.expressPath, authenticate(deps.auth, op.scheme));
  }

  // Keep the raw bytes: object and table digests are computed from the exact number lexemes.
  const verify = (req: express.Request, _res: unknown, buf: Buffer) => {
    req.rawBody = buf;
  };
  // Trajectory logs (64 MB+) are never parsed whole: the handler streams them piece by piece,
  // validating each against the same spec (http/log-body-reader.ts). So neither the JSON parser
  // nor the validator below may touch their bodies.
  app[logOp.method](logOp.expressPath, streamLogBody(opts.logBodyLimit));
  const json = express.json({ limit: opts.bodyLimit, verify });
  app.use((req, res, next) => (req.logBody ? next() : json(req, res, next)));

  app.use(
    OpenApiValidator.middleware({
      apiSpec: spec as never,
      validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
      validateResponses: opts.validateResponses ? { allErrors: true } : false,
      validateSecurity: false,
      validateFormats: true,
      ignoreUndocumented: false,
      // The log route validates its path parameter and its body itself, as it reads.
      ignorePaths: (path: string) => logPathPattern.test(path),
    }),
  );

  for (const op of operations) {
    app[op.method](op.expressPath, handlers[op.operationId]!);
  }
  // What the validator would answer for another method on the (ignored) log path.
  app.all(logOp.expressPath, (_req, _res, next) => next(Object.assign(new Error('method not allowed'), { status: 405 })));
  app.use(errorHandler);
  return app;
}
