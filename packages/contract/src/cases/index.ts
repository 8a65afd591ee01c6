// Every operation of the spec and its cases. Typed by OperationId (generated from the spec), so an
// operation added to the spec is a compile error here until it has cases; the suite checks the
// same at run time against spec/openapi.json.
import type { OperationId } from '@weft/types';
import { annotationQueueItemCases } from './annotation-queue-items.ts';
import { annotationQueueCases } from './annotation-queues.ts';
import { callStatsCases } from './call-stats.ts';
import { callUsageCases } from './call-usage.ts';
import { callCases } from './calls.ts';
import { costCases } from './costs.ts';
import { evaluationCases } from './evaluations.ts';
import { feedbackCases } from './feedback.ts';
import { fileCases } from './files.ts';
import { graphqlCases } from './graphql.ts';
import type { OperationCase } from './case-types.ts';
import { judgementCases } from './judgements.ts';
import { modelCases } from './models.ts';
import { objectTagCases } from './object-tags.ts';
import { objectCases } from './objects.ts';
import { otelCases } from './otel.ts';
import { projectCases } from './projects.ts';
import { refCases } from './refs.ts';
import { routerCases } from './router.ts';
import { serviceCases } from './service.ts';
import { tableCases } from './tables.ts';
import { threadCases } from './threads.ts';

export const operationCases: Record<OperationId, OperationCase> = {
  ...serviceCases,
  ...objectCases,
  ...objectTagCases,
  ...tableCases,
  ...callCases,
  ...callStatsCases,
  ...callUsageCases,
  ...threadCases,
  ...evaluationCases,
  ...fileCases,
  ...feedbackCases,
  ...judgementCases,
  ...costCases,
  ...annotationQueueCases,
  ...annotationQueueItemCases,
  ...modelCases,
  ...otelCases,
  ...projectCases,
  ...graphqlCases,
  ...refCases,
  ...routerCases,
};
