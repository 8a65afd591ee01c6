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
    // Tags and aliases: object_id (and digest) come from the path, the rest from the body.
    async objAddTags({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.objAddTags({ ...body, ...params }, contextOf(principal));
    },
    async objRemoveTags({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.objRemoveTags({ ...body, ...params }, contextOf(principal));
    },
    async objSetAliases({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.objSetAliases({ ...body, ...params }, contextOf(principal));
    },
    async objRemoveAliases({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.objRemoveAliases({ ...body, ...params }, contextOf(principal));
    },
    async tagsList({ query, principal }) {
      requireProject(auth, principal, query.project_id);
      return store.tagsList(query, contextOf(principal));
    },
    async aliasesList({ query, principal }) {
      requireProject(auth, principal, query.project_id);
      return store.aliasesList(query, contextOf(principal));
    },
  });
}
