import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function costHandlers({ store, auth }: Deps) {
  return handlers({
    // Prices are kept as the client wrote them (5e-06 stays exactly 0.000005): lossless by the spec.
    async costCreate({ body, source, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.costCreate(body, { ...contextOf(principal), source });
    },
    async costQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.costQuery(body, contextOf(principal));
    },
    async costPurge({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.costPurge(body, contextOf(principal));
    },
  });
}
