import type { AnnotationQueueCreateReq, AnnotationQueuesQueryReq, AnnotationQueueUpdateReq } from '@weft/types';
import type { Request } from 'express';
import { writeJsonLines } from '../http/json-lines.ts';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';

function queueKey(req: Request) {
  return { project_id: String(req.query.project_id), queue_id: String(req.params.queue_id) };
}

export function annotationQueueHandlers({ store, auth }: Deps): Handlers {
  return {
    async annotationQueueCreate(req, res) {
      const body = req.body as AnnotationQueueCreateReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.annotationQueueCreate(body, contextOf(req)));
    },
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
    async annotationQueueUpdate(req, res) {
      const body = req.body as AnnotationQueueUpdateReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.annotationQueueUpdate({ ...body, queue_id: String(req.params.queue_id) }, contextOf(req)));
    },
    async annotationQueueDelete(req, res) {
      const key = queueKey(req);
      requireProject(auth, req, key.project_id);
      res.json(await store.annotationQueueDelete(key, contextOf(req)));
    },
  };
}
