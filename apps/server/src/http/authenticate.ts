// Authentication runs before the body is parsed or validated: an anonymous client learns nothing
// about the schema and cannot make the server parse a 200 MB body. The scheme comes from the
// operation's `security` in the spec.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Authenticator, AuthScheme, Principal } from '../auth/index.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by authenticate() on operations that need credentials. */
      principal?: Principal;
      /** The body's bytes as received, kept by the JSON parser for lossless digests. */
      rawBody?: Buffer;
    }
  }
}

export function authenticate(auth: Authenticator, scheme: AuthScheme): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const result = auth.authenticate(req.headers.authorization, scheme);
    if (!result.ok) {
      res.status(401).set('WWW-Authenticate', result.wwwAuthenticate).json({ reason: result.reason, error_type: 'Unauthorized' });
      return;
    }
    req.principal = result.principal;
    next();
  };
}
