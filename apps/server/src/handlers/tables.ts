import type { TableCreateReq, TableQueryReq } from '@weft/types';
import type { Deps, Handlers } from './handler.ts';
import { projectScoped } from './project-scoped.ts';

export function tableHandlers(deps: Deps): Handlers {
  const { store } = deps;
  return {
    // Row digests are computed from the body's exact number lexemes (1.0 ≠ 1), hence lossless.
    tableCreate: projectScoped<TableCreateReq, unknown>(deps, (b) => b.table.project_id, (b, ctx) => store.tableCreate(b, ctx), { lossless: true }),
    tableQuery: projectScoped<TableQueryReq, unknown>(deps, (b) => b.project_id, (b, ctx) => store.tableQuery(b, ctx)),
  };
}
