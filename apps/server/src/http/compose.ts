// Runs a list of Express middlewares (express-openapi-validator's) as one awaited step, outside
// Express's router: the dispatcher has already found the operation.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Middlewares may pass anything to next(); the error handler reads Errors (http-errors are). */
const asError = (err: unknown): Error => (err instanceof Error ? err : Object.assign(new Error(String(err)), { cause: err }));

/**
 * `onLateError`: an error passed to next() after the step is over, as express-openapi-validator's
 * response validation does when the handler's answer breaks the spec (from inside res.json):
 * without it that answer would never be sent and the request would hang.
 */
export function compose(
  middlewares: readonly RequestHandler[],
  onLateError?: (err: Error, req: Request, res: Response) => void,
): (req: Request, res: Response) => Promise<void> {
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      let index = 0;
      let settled = false;
      const next: NextFunction = (err?: unknown) => {
        if (err !== undefined && err !== null && err !== 'route' && err !== 'router') {
          if (settled) return onLateError?.(asError(err), req, res);
          settled = true;
          return reject(asError(err));
        }
        if (settled) return;
        const middleware = middlewares[index++];
        if (!middleware) {
          settled = true;
          return resolve();
        }
        try {
          const result: unknown = middleware(req, res, next);
          if (result instanceof Promise)
            result.catch((e: unknown) => {
              settled = true;
              reject(asError(e));
            });
        } catch (e) {
          settled = true;
          reject(asError(e));
        }
      };
      next();
    });
}
