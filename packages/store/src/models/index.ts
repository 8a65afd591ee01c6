// ART models and their trajectory logs (the /v1/preview/models API of W&B Serverless Training).
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { checkpointCreate, checkpointsDelete, checkpointsList } from './checkpoints.ts';
import { metricsHistory } from './metrics-history.ts';
import { modelCreate } from './model-create.ts';
import { modelDelete } from './model-delete.ts';
import { modelLog } from './model-log.ts';
import { modelRead } from './model-read.ts';
import { modelsList } from './models-list.ts';
import { trajectoriesList } from './trajectories-list.ts';

export function modelMethods(opts: StoreOptions) {
  const { db } = opts;
  return storeMethods({
    modelCreate: (req) => modelCreate(db, req),
    modelRead: (req) => modelRead(db, req.model_id),
    modelsList: (req) => modelsList(db, req),
    modelDelete: (req) => modelDelete(db, req.model_id),
    modelLog: (req) => modelLog(db, req),
    modelMetricsHistory: (req) => metricsHistory(db, req),
    modelCheckpointCreate: (req) => checkpointCreate(db, req),
    modelCheckpointsList: (req) => checkpointsList(db, req),
    modelCheckpointsDelete: (req) => checkpointsDelete(db, req),
    modelTrajectoriesList: (req) => trajectoriesList(db, req),
  });
}
