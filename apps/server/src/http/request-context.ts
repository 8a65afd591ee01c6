// What handlers need from a request beyond its body: the caller and the tenancy checks.
import { forbidden } from '@weft/core';
import type { ReadingContext, RequestContext } from '@weft/store';
import type { Authenticator, Principal } from '../auth/index.ts';

/** 403 unless the caller's user is a member of the project's entity. */
export function requireProject(auth: Pick<Authenticator, 'authorizeProject'>, principal: Principal, projectId: string): void {
  const result = auth.authorizeProject(principal, projectId);
  if (!result.ok) throw forbidden(result.reason);
}

export function requireEntity(auth: Authenticator, principal: Principal, entity: string): void {
  const result = auth.authorizeEntity(principal, entity);
  if (!result.ok) throw forbidden(result.reason);
}

/** The store's context of a request: who is writing. */
export function contextOf(principal: Principal): RequestContext {
  return { user: principal.username };
}

/**
 * The context of an operation that follows refs named in stored values: the projects the caller
 * may read are those it may access, checked by the store at every hop of every ref.
 */
export function readingContextOf(auth: Authenticator, principal: Principal): ReadingContext {
  return { ...contextOf(principal), mayRead: (projectId) => auth.authorizeProject(principal, projectId).ok };
}
