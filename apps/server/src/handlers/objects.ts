import type { ObjCreateReq, ObjDeleteReq, ObjReadReq, ObjsQueryReq } from '@weft/types';
import type { Deps, Handlers } from './handler.ts';
import { projectScoped } from './project-scoped.ts';

export function objectHandlers(deps: Deps): Handlers {
  const { store } = deps;
  return {
    // Digests are computed from the body's exact number lexemes (1.0 ≠ 1), hence lossless.
    objCreate: projectScoped<ObjCreateReq, unknown>(deps, (b) => b.obj.project_id, (b, ctx) => store.objCreate(b, ctx), { lossless: true }),
    objRead: projectScoped<ObjReadReq, unknown>(deps, (b) => b.project_id, (b, ctx) => store.objRead(b, ctx)),
    objDelete: projectScoped<ObjDeleteReq, unknown>(deps, (b) => b.project_id, (b, ctx) => store.objDelete(b, ctx)),
    objsQuery: projectScoped<ObjsQueryReq, unknown>(deps, (b) => b.project_id, (b, ctx) => store.objsQuery(b, ctx)),
  };
}
