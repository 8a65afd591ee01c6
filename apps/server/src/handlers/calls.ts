import type { CallEndReq, CallReadReq, CallsStreamQueryReq, CallStartReq, CallUpdateReq, CallUpsertBatchReq } from '@weft/types';
import { writeJsonLines } from '../http/json-lines.ts';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';

export function callHandlers({ store, auth }: Deps): Handlers {
  return {
    async callStart(req, res) {
      const body = req.body as CallStartReq;
      requireProject(auth, req, body.start.project_id);
      res.json(await store.callStart(body, contextOf(req)));
    },
    async callEnd(req, res) {
      const body = req.body as CallEndReq;
      requireProject(auth, req, body.end.project_id);
      res.json(await store.callEnd(body, contextOf(req)));
    },
    async callUpsertBatch(req, res) {
      const body = req.body as CallUpsertBatchReq;
      // Every item names its own project: all of them must be the caller's before anything is written.
      for (const item of body.batch) {
        requireProject(auth, req, item.mode === 'start' ? item.req.start.project_id : item.req.end.project_id);
      }
      res.json(await store.callUpsertBatch(body, contextOf(req)));
    },
    async callRead(req, res) {
      const body = req.body as CallReadReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.callRead(body, contextOf(req)));
    },
    async callUpdate(req, res) {
      const body = req.body as CallUpdateReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.callUpdate(body, contextOf(req)));
    },
    async callsStreamQuery(req, res) {
      const body = req.body as CallsStreamQueryReq;
      requireProject(auth, req, body.project_id);
      await writeJsonLines(res, store.callsStreamQuery(body, contextOf(req)));
    },
  };
}
