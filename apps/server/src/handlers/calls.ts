import { contextOf, readingContextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function callHandlers({ store, auth }: Deps) {
  return handlers({
    async callStart({ body, principal }) {
      requireProject(auth, principal, body.start.project_id);
      return store.callStart(body, contextOf(principal));
    },
    async callEnd({ body, principal }) {
      requireProject(auth, principal, body.end.project_id);
      return store.callEnd(body, contextOf(principal));
    },
    async callRead({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callRead(body, contextOf(principal));
    },
    async callUpdate({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callUpdate(body, contextOf(principal));
    },
    async callsQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callsQuery(body, readingContextOf(auth, principal));
    },
    async callsDelete({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callsDelete(body, contextOf(principal));
    },
    async callUpsertBatch({ body, principal }) {
      // Every item names its own project: all of them must be the caller's before anything is written.
      for (const item of body.batch) {
        requireProject(auth, principal, item.mode === 'start' ? item.req.start.project_id : item.req.end.project_id);
      }
      return store.callUpsertBatch(body, contextOf(principal));
    },
    async callsStreamQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callsStreamQuery(body, readingContextOf(auth, principal));
    },
    async callsQueryStats({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callsQueryStats(body, contextOf(principal));
    },
    async callsStats({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callsStats(body, contextOf(principal));
    },
    async callsUsage({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callsUsage(body, contextOf(principal));
    },
    async traceUsage({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.traceUsage(body, contextOf(principal));
    },
  });
}
