// Runs a list of Express middlewares (express-openapi-validator's) as one awaited step, outside
// Express's router: the dispatcher has already found the operation.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Middlewares may pass anything to next(); the error handler reads Errors (http-errors are). */
const asError = (err: unknown): Error => (err instanceof Error ? err : Object.assign(new Error(String(err)), { cause: err }));

export function compose(middlewares: readonly RequestHandler[]): (req: Request, res: Response) => Promise<void> {
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      let index = 0;
      const next: NextFunction = (err?: unknown) => {
        if (err !== undefined && err !== null && err !== 'route' && err !== 'router') return reject(asError(err));
        const middleware = middlewares[index++];
        if (!middleware) return resolve();
        try {
          const result: unknown = middleware(req, res, next);
          if (result instanceof Promise) result.catch((e: unknown) => reject(asError(e)));
        } catch (e) {
          reject(asError(e));
        }
      };
      next();
    });
}
