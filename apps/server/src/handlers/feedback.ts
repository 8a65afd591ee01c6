import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function feedbackHandlers({ store, auth }: Deps) {
  return handlers({
    async feedbackCreate({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.feedbackCreate(body, contextOf(principal));
    },
  });
}
