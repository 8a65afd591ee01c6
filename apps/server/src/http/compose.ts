// Runs a list of Express middlewares (express-openapi-validator's) as one awaited step, outside
// Express's router: the dispatcher has already found the operation.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function compose(middlewares: readonly RequestHandler[]): (req: Request, res: Response) => Promise<void> {
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      let index = 0;
      const next: NextFunction = (err?: unknown) => {
        if (err !== undefined && err !== null && err !== 'route' && err !== 'router') return reject(err);
        const middleware = middlewares[index++];
        if (!middleware) return resolve();
        try {
          const result: unknown = middleware(req, res, next);
          if (result instanceof Promise) result.catch(reject);
        } catch (e) {
          reject(e);
        }
      };
      next();
    });
}
