import { annotationQueueHandlers } from './annotation-queues.ts';
import { callHandlers } from './calls.ts';
import { costHandlers } from './costs.ts';
import { evaluationHandlers } from './evaluations.ts';
import type { Deps, Handlers } from './handler.ts';
import { feedbackHandlers } from './feedback.ts';
import { fileHandlers } from './files.ts';
import { graphqlHandlers } from './graphql.ts';
import { judgementHandlers } from './judgements.ts';
import { modelHandlers } from './models.ts';
import { objectHandlers } from './objects.ts';
import { otelHandlers } from './otel.ts';
import { projectHandlers } from './projects.ts';
import { refHandlers } from './refs.ts';
import { routerHandlers } from './router.ts';
import { serviceHandlers } from './service.ts';
import { tableHandlers } from './tables.ts';
import { threadHandlers } from './threads.ts';

export { ANSWERED } from './handler.ts';
export type { AnswerOf, BodyByMode, Deps, Handler, Handlers, OperationInput } from './handler.ts';

/** Typed as Handlers: an operation of the spec without a handler does not compile. */
export function allHandlers(deps: Deps): Handlers {
  return {
    ...serviceHandlers(deps),
    ...objectHandlers(deps),
    ...tableHandlers(deps),
    ...callHandlers(deps),
    ...threadHandlers(deps),
    ...evaluationHandlers(deps),
    ...annotationQueueHandlers(deps),
    ...modelHandlers(deps),
    ...fileHandlers(deps),
    ...feedbackHandlers(deps),
    ...judgementHandlers(deps),
    ...costHandlers(deps),
    ...otelHandlers(deps),
    ...projectHandlers(deps),
    ...graphqlHandlers(deps),
    ...refHandlers(deps),
    ...routerHandlers(deps),
  };
}
