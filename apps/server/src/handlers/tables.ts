import type { TableCreateReq, TableQueryReq } from '@weft/types';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';

export function tableHandlers({ store, auth }: Deps): Handlers {
  return {
    async tableCreate(req, res) {
      const body = req.body as TableCreateReq;
      requireProject(auth, req, body.table.project_id);
      res.json(await store.tableCreate(body, contextOf(req, { lossless: true })));
    },
    async tableQuery(req, res) {
      const body = req.body as TableQueryReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.tableQuery(body, contextOf(req)));
    },
  };
}
