// STAND-IN until helper h-router-record's branch is merged (it replaces this file).
import type { IncomingHttpHeaders } from 'node:http';
import type { RouterConfig } from '@weft/router';
import { authorizeProject, defaultEntity, type Authenticator, type Principal } from '../auth/index.ts';
import { requireProject } from '../http/request-context.ts';

type ProjectAuth = Pick<Authenticator, 'authorizeProject' | 'defaultEntity'>;
const PURE_AUTH: ProjectAuth = { authorizeProject, defaultEntity };

/** The project the request's call is recorded in (`OpenAI-Project`, else `<entity>/router`); 403 when not the caller's. */
export function routerProject(headers: IncomingHttpHeaders, principal: Principal, auth: ProjectAuth = PURE_AUTH): string {
  const named = headers['openai-project'];
  const projectId = typeof named === 'string' && named.trim() !== '' ? named.trim() : `${auth.defaultEntity(principal)}/router`;
  requireProject(auth as Authenticator, principal, projectId);
  return projectId;
}

export function recordContentFor(projects: RouterConfig['projects'] | undefined, projectId: string, headers: IncomingHttpHeaders): boolean {
  if (projects?.[projectId]?.record_content === false) return false;
  return headers['x-weft-record-content'] !== 'false';
}
