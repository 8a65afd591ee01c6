import type { ModelCreateReq } from '@weft/types';
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
    // The body is parsed piece by piece into the store (see http/log-body-reader.ts). Its bytes are
    // read off the network first, so the store's transaction never waits on a slow client. As on
    // every route, a bad body is answered before a 404/403: a refusal waits until the body has
    // been read (and nothing stored).
    async modelLog(req, res) {
      const reader = req.logBody!;
      await reader.prefetch();
      let refusal: unknown;
      let model: Awaited<ReturnType<typeof ownedModel>> | undefined;
      if (reader.healthy) {
        try {
          model = await ownedModel(req);
        } catch (err) {
          refusal = err;
        }
      }
      let storeError: unknown;
      if (model) {
        try {
          res.json(await store.modelLogStream({ model_id: model.id, pieces: reader.pieces() }, contextOf(req)));
          return;
        } catch (err) {
          storeError = err;
        }
      }
      await reader.drain();
      if (reader.clientGone) {
        res.destroy();
        return;
      }
      throw reader.answer() ?? refusal ?? storeError;
    },
  };
}
