import type { AnnotationQueueCreateReq, AnnotationQueuesQueryReq, AnnotationQueueUpdateReq } from '@weft/types';
import type { Request } from 'express';
import { writeJsonLines } from '../http/json-lines.ts';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';
import { projectScoped } from './project-scoped.ts';

function queueKey(req: Request) {
  return { project_id: String(req.query.project_id), queue_id: String(req.params.queue_id) };
}

export function annotationQueueHandlers(deps: Deps): Handlers {
  const { store, auth } = deps;
  return {
    annotationQueueCreate: projectScoped<AnnotationQueueCreateReq, unknown>(deps, (b) => b.project_id, (b, ctx) =>
      store.annotationQueueCreate(b, ctx),
    ),
    async annotationQueuesQuery(req, res) {
      const body = req.body as AnnotationQueuesQueryReq;
      requireProject(auth, req, body.project_id);
      await writeJsonLines(res, await store.annotationQueuesQuery(body, contextOf(req)));
    },
    async annotationQueueRead(req, res) {
      const key = queueKey(req);
      requireProject(auth, req, key.project_id);
      res.json(await store.annotationQueueRead(key, contextOf(req)));
    },
    annotationQueueUpdate: projectScoped<AnnotationQueueUpdateReq, unknown>(deps, (b) => b.project_id, (b, ctx, req) =>
      store.annotationQueueUpdate({ ...b, queue_id: String(req.params.queue_id) }, ctx),
    ),
    async annotationQueueDelete(req, res) {
      const key = queueKey(req);
      requireProject(auth, req, key.project_id);
      res.json(await store.annotationQueueDelete(key, contextOf(req)));
    },
  };
}
