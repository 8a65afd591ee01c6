import { annotationQueueHandlers } from './annotation-queues.ts';
import { callHandlers } from './calls.ts';
import type { Deps, Handlers } from './handler.ts';
import { feedbackHandlers } from './feedback.ts';
import { fileHandlers } from './files.ts';
import { modelHandlers } from './models.ts';
import { objectHandlers } from './objects.ts';
import { serviceHandlers } from './service.ts';
import { tableHandlers } from './tables.ts';

export type { Deps, Handler, Handlers } from './handler.ts';

export function allHandlers(deps: Deps): Handlers {
  return {
    ...serviceHandlers(deps),
    ...objectHandlers(deps),
    ...tableHandlers(deps),
    ...callHandlers(deps),
    ...annotationQueueHandlers(deps),
    ...modelHandlers(deps),
    ...fileHandlers(deps),
    ...feedbackHandlers(deps),
  };
}
