// Generated from spec/openapi.json by `pnpm gen` (packages/types/scripts/gen.ts). Do not edit.
// Per operation: how its body is read (x-weft-body), which credentials it takes (security) and,
// for a JSON Lines answer, the schema of one line (x-weft-line-schema).
export interface OperationFacts {
  annotationQueueCreate: { body: 'json'; auth: 'basic'; line: null };
  annotationQueueDelete: { body: 'none'; auth: 'basic'; line: null };
  annotationQueueRead: { body: 'none'; auth: 'basic'; line: null };
  annotationQueuesQuery: { body: 'json'; auth: 'basic'; line: 'AnnotationQueueSchema' };
  annotationQueueUpdate: { body: 'json'; auth: 'basic'; line: null };
  callEnd: { body: 'json'; auth: 'basic'; line: null };
  callRead: { body: 'json'; auth: 'basic'; line: null };
  callsDelete: { body: 'json'; auth: 'basic'; line: null };
  callsQueryStats: { body: 'json'; auth: 'basic'; line: null };
  callsStreamQuery: { body: 'json'; auth: 'basic'; line: 'CallSchema' };
  callStart: { body: 'json'; auth: 'basic'; line: null };
  callUpdate: { body: 'json'; auth: 'basic'; line: null };
  callUpsertBatch: { body: 'json'; auth: 'basic'; line: null };
  feedbackBatchCreate: { body: 'json'; auth: 'basic'; line: null };
  feedbackCreate: { body: 'json'; auth: 'basic'; line: null };
  feedbackQuery: { body: 'json'; auth: 'basic'; line: null };
  fileContent: { body: 'json'; auth: 'basic'; line: null };
  fileCreate: { body: 'multipart'; auth: 'basic'; line: null };
  filesContent: { body: 'json'; auth: 'basic'; line: null };
  filesCreate: { body: 'multipart'; auth: 'basic'; line: null };
  graphqlQuery: { body: 'json'; auth: 'basic'; line: null };
  health: { body: 'none'; auth: 'none'; line: null };
  metrics: { body: 'none'; auth: 'none'; line: null };
  modelCheckpointCreate: { body: 'json'; auth: 'bearer'; line: null };
  modelCheckpointsDelete: { body: 'json'; auth: 'bearer'; line: null };
  modelCheckpointsList: { body: 'none'; auth: 'bearer'; line: null };
  modelCreate: { body: 'json'; auth: 'bearer'; line: null };
  modelDelete: { body: 'none'; auth: 'bearer'; line: null };
  modelLog: { body: 'stream'; auth: 'bearer'; line: null };
  modelMetricsHistory: { body: 'none'; auth: 'bearer'; line: null };
  modelRead: { body: 'none'; auth: 'bearer'; line: null };
  modelsList: { body: 'none'; auth: 'bearer'; line: null };
  modelTrajectoriesList: { body: 'none'; auth: 'bearer'; line: null };
  objCreate: { body: 'lossless'; auth: 'basic'; line: null };
  objDelete: { body: 'json'; auth: 'basic'; line: null };
  objRead: { body: 'json'; auth: 'basic'; line: null };
  objsQuery: { body: 'json'; auth: 'basic'; line: null };
  otelExport: { body: 'bytes'; auth: 'basic'; line: null };
  projectsList: { body: 'none'; auth: 'basic'; line: null };
  ready: { body: 'none'; auth: 'none'; line: null };
  refsReadBatch: { body: 'json'; auth: 'basic'; line: null };
  routerModelsList: { body: 'none'; auth: 'none'; line: null };
  serverInfo: { body: 'none'; auth: 'basic'; line: null };
  tableCreate: { body: 'lossless'; auth: 'basic'; line: null };
  tableQuery: { body: 'json'; auth: 'basic'; line: null };
  tableQueryStats: { body: 'json'; auth: 'basic'; line: null };
  tableQueryStatsBatch: { body: 'json'; auth: 'basic'; line: null };
  trainingJobCreate: { body: 'none'; auth: 'none'; line: null };
}
