// ART models and their trajectory logs (the /v1/preview/models API of W&B Serverless Training).
import type { StoreOptions } from '../create-store.ts';
import { storeMethods } from '../store.ts';
import { modelCreate } from './model-create.ts';
import { modelLog } from './model-log-stream.ts';
import { modelRead } from './model-read.ts';

export function modelMethods(opts: StoreOptions) {
  const { db } = opts;
  return storeMethods({
    modelCreate: (req) => modelCreate(db, req),
    modelRead: (req) => modelRead(db, req.model_id),
    modelLog: (req) => modelLog(db, req),
  });
}
