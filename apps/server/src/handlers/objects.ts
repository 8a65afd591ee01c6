import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function objectHandlers({ store, auth }: Deps) {
  return handlers({
    // Digests are computed from the body's exact number lexemes (1.0 ≠ 1): lossless by the spec.
    async objCreate({ body, source, principal }) {
      requireProject(auth, principal, body.obj.project_id);
      return store.objCreate(body, { ...contextOf(principal), source });
    },
    async objRead({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.objRead(body, contextOf(principal));
    },
    async objDelete({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.objDelete(body, contextOf(principal));
    },
    async objsQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.objsQuery(body, contextOf(principal));
    },
  });
}
