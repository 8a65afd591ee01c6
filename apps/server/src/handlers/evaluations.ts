import { readingContextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function evaluationHandlers({ store, auth }: Deps) {
  return handlers({
    async evalResultsQuery({ body, params, principal }) {
      // Weave's v2 routes name the project in the path; its id is the two halves joined.
      const project_id = `${params.entity}/${params.project}`;
      requireProject(auth, principal, project_id);
      return store.evalResultsQuery({ ...body, project_id }, readingContextOf(auth, principal));
    },
  });
}
