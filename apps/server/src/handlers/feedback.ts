import type { FeedbackCreateReq } from '@weft/types';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';

export function feedbackHandlers({ store, auth }: Deps): Handlers {
  return {
    async feedbackCreate(req, res) {
      const body = req.body as FeedbackCreateReq;
      requireProject(auth, req, body.project_id);
      res.json(await store.feedbackCreate(body, contextOf(req)));
    },
  };
}
