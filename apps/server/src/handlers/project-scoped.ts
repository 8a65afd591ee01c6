// The shape of most operations: the body names a project; the caller must belong to its entity;
// the store method of the same name answers; the answer is JSON.
import type { Request } from 'express';
import type { RequestContext } from '@weft/store';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handler } from './handler.ts';

export function projectScoped<Req, Res>(
  { auth }: Pick<Deps, 'auth'>,
  projectOf: (body: Req) => string,
  run: (body: Req, ctx: RequestContext, req: Request) => Promise<Res>,
  opts: { lossless?: boolean } = {},
): Handler {
  return async (req, res) => {
    const body = req.body as Req;
    requireProject(auth, req, projectOf(body));
    res.json(await run(body, contextOf(req, opts), req));
  };
}
