// Where a router request is recorded, and whether its content is: the project comes from the
// `OpenAI-Project` header (the `openai` client's `project` option sends it; W&B Inference reads the
// same header), checked against the caller like every operation's project_id.
import type { IncomingHttpHeaders } from 'node:http';
import type { RouterConfig } from '@weft/router';
import { authorizeProject, defaultEntity, type Authenticator, type Principal } from '../auth/index.ts';
import { requireProject } from '../http/request-context.ts';

/** The project of requests that do not name one: `<the key's default entity>/router`. */
export const DEFAULT_ROUTER_PROJECT = 'router';

type ProjectAuth = Pick<Authenticator, 'authorizeProject' | 'defaultEntity'>;
// The authenticator's checks are these pure functions; a caller passes its own to stay on one path.
const PURE_AUTH: ProjectAuth = { authorizeProject, defaultEntity };

/**
 * The project (`entity/project`) the request's call is recorded in; 403 when the caller's key may
 * not access it. The header's shape (`entity/project`) is the spec's, checked before the handler.
 * The default is `<first entity of the key>/router` (a wildcard-only local user: its own name).
 */
export function routerProject(headers: IncomingHttpHeaders, principal: Principal, auth: ProjectAuth = PURE_AUTH): string {
  const named = headers['openai-project'];
  const projectId =
    typeof named === 'string' && named.trim() !== '' ? named.trim() : `${auth.defaultEntity(principal)}/${DEFAULT_ROUTER_PROJECT}`;
  requireProject(auth, principal, projectId);
  return projectId;
}

/**
 * Whether messages and outputs are recorded: off when the operator switched it off for the
 * project (config `projects`), or the request sends `X-Weft-Record-Content: false`. A request
 * cannot switch on what the operator switched off.
 */
export function recordContentFor(projects: RouterConfig['projects'] | undefined, projectId: string, headers: IncomingHttpHeaders): boolean {
  const setting = projects !== undefined && Object.hasOwn(projects, projectId) ? projects[projectId] : undefined;
  if (setting?.record_content === false) return false;
  return headers['x-weft-record-content'] !== 'false';
}
