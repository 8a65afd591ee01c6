import type { ObjCreateReq, ObjDeleteReq, ObjReadReq, ObjsQueryReq } from '@weft/types';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';

export function objectHandlers({ store, auth }: Deps): Handlers {
  return {
    async objCreate(req, res) {
      const body = req.body as ObjCreateReq;
      requireProject(auth, req, body.obj.project_id);
      res.json(await store.objCreate(body, contextOf(req, { lossless: true })));
    },
    async objRead(req, res) {
      const body = req.body as ObjReadReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.objRead(body, contextOf(req)));
    },
    async objDelete(req, res) {
      const body = req.body as ObjDeleteReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.objDelete(body, contextOf(req)));
    },
    async objsQuery(req, res) {
      const body = req.body as ObjsQueryReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.objsQuery(body, contextOf(req)));
    },
  };
}
