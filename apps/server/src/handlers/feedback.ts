import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function feedbackHandlers({ store, auth }: Deps) {
  return handlers({
    async feedbackCreate({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.feedbackCreate(body, contextOf(principal));
    },
    async feedbackBatchCreate({ body, principal }) {
      // Every item names its own project: all must be the caller's before anything is written.
      for (const item of body.batch) requireProject(auth, principal, item.project_id);
      return store.feedbackBatchCreate(body, contextOf(principal));
    },
    async feedbackPurge({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.feedbackPurge(body, contextOf(principal));
    },
    async feedbackReplace({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.feedbackReplace(body, contextOf(principal));
    },
    async feedbackQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.feedbackQuery(body, contextOf(principal));
    },
    async feedbackStats({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.feedbackStats(body, contextOf(principal));
    },
    async feedbackPayloadSchema({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.feedbackPayloadSchema(body, contextOf(principal));
    },
    async feedbackAggregate({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.feedbackAggregate(body, contextOf(principal));
    },
  });
}
