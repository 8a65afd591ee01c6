import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function annotationQueueHandlers({ store, auth }: Deps) {
  return handlers({
    async annotationQueueCreate({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.annotationQueueCreate(body, contextOf(principal));
    },
    async annotationQueuesQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.annotationQueuesQuery(body, contextOf(principal));
    },
    async annotationQueueRead({ params, query, principal }) {
      requireProject(auth, principal, query.project_id);
      return store.annotationQueueRead({ ...query, ...params }, contextOf(principal));
    },
    async annotationQueueUpdate({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.annotationQueueUpdate({ ...body, ...params }, contextOf(principal));
    },
    async annotationQueueDelete({ params, query, principal }) {
      requireProject(auth, principal, query.project_id);
      return store.annotationQueueDelete({ ...query, ...params }, contextOf(principal));
    },
    async annotationQueueAddCalls({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.annotationQueueAddCalls({ ...body, ...params }, contextOf(principal));
    },
    async annotationQueueItemsQuery({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.annotationQueueItemsQuery({ ...body, ...params }, contextOf(principal));
    },
    async annotationQueueItemProgressUpdate({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.annotationQueueItemProgressUpdate({ ...body, ...params }, contextOf(principal));
    },
    async annotationQueueItemsDelete({ body, params, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.annotationQueueItemsDelete({ ...body, ...params }, contextOf(principal));
    },
    async annotationQueuesStats({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.annotationQueuesStats(body, contextOf(principal));
    },
  });
}
