import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function tableHandlers({ store, auth }: Deps) {
  return handlers({
    // Row digests are computed from the body's exact number lexemes (1.0 ≠ 1): lossless by the spec.
    async tableUpdate({ body, source, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.tableUpdate(body, { ...contextOf(principal), source });
    },
    async tableCreate({ body, source, principal }) {
      requireProject(auth, principal, body.table.project_id);
      return store.tableCreate(body, { ...contextOf(principal), source });
    },
    async tableQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.tableQuery(body, contextOf(principal));
    },
    async tableQueryStats({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.tableQueryStats(body, contextOf(principal));
    },
    async tableQueryStatsBatch({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.tableQueryStatsBatch(body, contextOf(principal));
    },
  });
}
