import type { CallEndReq, CallReadReq, CallsStreamQueryReq, CallStartReq, CallUpdateReq, CallUpsertBatchReq } from '@weft/types';
import { writeJsonLines } from '../http/json-lines.ts';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';
import { projectScoped } from './project-scoped.ts';

export function callHandlers(deps: Deps): Handlers {
  const { store, auth } = deps;
  return {
    callStart: projectScoped<CallStartReq, unknown>(deps, (b) => b.start.project_id, (b, ctx) => store.callStart(b, ctx)),
    callEnd: projectScoped<CallEndReq, unknown>(deps, (b) => b.end.project_id, (b, ctx) => store.callEnd(b, ctx)),
    callRead: projectScoped<CallReadReq, unknown>(deps, (b) => b.project_id, (b, ctx) => store.callRead(b, ctx)),
    callUpdate: projectScoped<CallUpdateReq, unknown>(deps, (b) => b.project_id, (b, ctx) => store.callUpdate(b, ctx)),
    async callUpsertBatch(req, res) {
      const body = req.body as CallUpsertBatchReq;
      // Every item names its own project: all of them must be the caller's before anything is written.
      for (const item of body.batch) {
        requireProject(auth, req, item.mode === 'start' ? item.req.start.project_id : item.req.end.project_id);
      }
      res.json(await store.callUpsertBatch(body, contextOf(req)));
    },
    async callsStreamQuery(req, res) {
      const body = req.body as CallsStreamQueryReq;
      requireProject(auth, req, body.project_id);
      await writeJsonLines(res, store.callsStreamQuery(body, contextOf(req)));
    },
  };
}
