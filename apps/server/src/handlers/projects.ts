import { ALL_ENTITIES } from '../auth/index.ts';
import { contextOf } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function projectHandlers({ store }: Deps) {
  return handlers({
    async projectsList({ query, principal }) {
      // Tenancy is the filter itself: only the entities this key may access are read.
      const entities = principal.entities.includes(ALL_ENTITIES) ? 'all' : principal.entities;
      return store.projectsList({ ...query, entities }, contextOf(principal));
    },
  });
}
