import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function threadHandlers({ store, auth }: Deps) {
  return handlers({
    async threadsStreamQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.threadsStreamQuery(body, contextOf(principal));
    },
  });
}
