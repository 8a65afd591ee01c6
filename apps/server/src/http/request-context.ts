// What handlers need from a request beyond its body: the caller, tenancy checks, and the
// lossless parse of the raw body for operations whose digests must match Weave byte for byte.
import type { Request } from 'express';
import { forbidden, parseLossless } from '@weft/core';
import type { RequestContext } from '@weft/store';
import type { Authenticator, Principal } from '../auth/index.ts';

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Error(`operation at ${req.path} ran without authentication`);
  return req.principal;
}

/** 403 unless the caller's user is a member of the project's entity. */
export function requireProject(auth: Authenticator, req: Request, projectId: string): void {
  const result = auth.authorizeProject(principalOf(req), projectId);
  if (!result.ok) throw forbidden(result.reason);
}

export function requireEntity(auth: Authenticator, req: Request, entity: string): void {
  const result = auth.authorizeEntity(principalOf(req), entity);
  if (!result.ok) throw forbidden(result.reason);
}

export function contextOf(req: Request, opts: { lossless?: boolean } = {}): RequestContext {
  const ctx: RequestContext = { user: principalOf(req).username };
  if (opts.lossless && req.rawBody) ctx.source = parseLossless(req.rawBody.toString('utf8'));
  return ctx;
}
