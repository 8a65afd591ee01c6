import type { FeedbackCreateReq } from '@weft/types';
import type { Deps, Handlers } from './handler.ts';
import { projectScoped } from './project-scoped.ts';

export function feedbackHandlers(deps: Deps): Handlers {
  return {
    feedbackCreate: projectScoped<FeedbackCreateReq, unknown>(deps, (b) => b.project_id, (b, ctx) => deps.store.feedbackCreate(b, ctx)),
  };
}
