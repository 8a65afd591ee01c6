import { ALL_ENTITIES } from '../auth/index.ts';
import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function projectHandlers({ store, auth }: Deps) {
  return handlers({
    async projectsList({ query, principal }) {
      // Tenancy is the filter itself: only the entities this key may access are read.
      const entities = principal.entities.includes(ALL_ENTITIES) ? 'all' : principal.entities;
      return store.projectsList({ ...query, entities }, contextOf(principal));
    },
    async projectTtlSettingsRead({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.projectTtlSettingsRead(body, contextOf(principal));
    },
    async projectTtlSettingsUpdate({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.projectTtlSettingsUpdate(body, contextOf(principal));
    },
  });
}
