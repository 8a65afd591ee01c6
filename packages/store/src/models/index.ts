// ART models and their trajectory logs (the /v1/preview/models API of W&B Serverless Training).
import type { StoreOptions } from '../create-store.ts';
import type { Store } from '../store.ts';
import { createModel } from './model-create.ts';
import { logTrajectories } from './model-log.ts';
import { logTrajectoryStream } from './model-log-stream.ts';
import { readModel } from './model-read.ts';

export function modelMethods(opts: StoreOptions): Pick<Store, 'modelCreate' | 'modelRead' | 'modelLog' | 'modelLogStream'> {
  const { db } = opts;
  return {
    modelCreate: (req) => createModel(db, req),
    modelRead: (req) => readModel(db, req.model_id),
    modelLog: (req) => logTrajectories(db, req),
    modelLogStream: (req) => logTrajectoryStream(db, req),
  };
}
