import type { ModelCreateReq, ModelLogReq } from '@weft/types';
import type { Request } from 'express';
import { contextOf, principalOf, requireEntity } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';

export function modelHandlers({ store, auth }: Deps): Handlers {
  /** Reads the model and checks the caller belongs to its entity, so a 404 never hides a 403. */
  async function ownedModel(req: Request) {
    const model = await store.modelRead({ model_id: String(req.params.model_id) }, contextOf(req));
    requireEntity(auth, req, model.entity);
    return model;
  }
  return {
    async modelCreate(req, res) {
      const body = req.body as ModelCreateReq;
      // ART sends `entity: null` for "the key owner's default entity"; the answer must name it.
      const entity = body.entity ?? auth.defaultEntity(principalOf(req));
      requireEntity(auth, req, entity);
      res.json(await store.modelCreate({ ...body, entity }, contextOf(req)));
    },
    async modelRead(req, res) {
      res.json(await ownedModel(req));
    },
    async modelLog(req, res) {
      const model = await ownedModel(req);
      const body = req.body as ModelLogReq;
      res.json(await store.modelLog({ ...body, model_id: model.id }, contextOf(req)));
    },
  };
}
