import { notImplemented } from '@weft/core';
import type { Principal } from '../auth/index.ts';
import { LogBodyReader } from '../http/log-body/log-body-reader.ts';
import { contextOf, requireEntity, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function modelHandlers({ store, auth }: Deps) {
  /** Reads the model and checks the caller belongs to its entity, so a 404 never hides a 403. */
  async function ownedModel(modelId: string, principal: Principal) {
    const model = await store.modelRead({ model_id: modelId }, contextOf(principal));
    requireEntity(auth, principal, model.entity);
    return model;
  }
  return handlers({
    async modelCreate({ body, principal }) {
      // ART sends `entity: null` for "the key owner's default entity"; the answer must name it.
      const entity = body.entity ?? auth.defaultEntity(principal);
      requireEntity(auth, principal, entity);
      return store.modelCreate({ ...body, entity }, contextOf(principal));
    },
    async modelRead({ params, principal }) {
      return ownedModel(params.model_id, principal);
    },
    async modelsList({ query, principal }) {
      requireProject(auth, principal, query.project);
      return store.modelsList(query, contextOf(principal));
    },
    async modelDelete({ params, principal }) {
      await ownedModel(params.model_id, principal);
      return store.modelDelete({ model_id: params.model_id }, contextOf(principal));
    },
    async modelMetricsHistory({ params, query, principal }) {
      await ownedModel(params.model_id, principal);
      return store.modelMetricsHistory({ ...query, model_id: params.model_id }, contextOf(principal));
    },
    async modelCheckpointCreate({ body, params, principal }) {
      await ownedModel(params.model_id, principal);
      return store.modelCheckpointCreate({ ...body, model_id: params.model_id }, contextOf(principal));
    },
    async modelCheckpointsList({ params, query, principal }) {
      await ownedModel(params.model_id, principal);
      return store.modelCheckpointsList({ ...query, model_id: params.model_id }, contextOf(principal));
    },
    async modelTrajectoriesList({ params, query, principal }) {
      await ownedModel(params.model_id, principal);
      return store.modelTrajectoriesList({ ...query, model_id: params.model_id }, contextOf(principal));
    },
    // ART's model.train() on its serverless backend. Weft keeps runs and does not train: say so
    // plainly (a 404 would read as a wrong base URL). The body is never read.
    async trainingJobCreate() {
      throw notImplemented(
        "Weft stores runs but does not train: train with ART's LocalBackend or your own loop, and register each step with POST /v1/preview/models/{model_id}/checkpoints",
      );
    },
    async modelCheckpointsDelete({ body, params, principal }) {
      await ownedModel(params.model_id, principal);
      return store.modelCheckpointsDelete({ ...body, model_id: params.model_id }, contextOf(principal));
    },
    // The body's bytes have been read (stream mode; spooled to a file past its first MB), so the
    // store's transaction never waits on a slow client; they are parsed and validated one
    // trajectory at a time as the store writes. As on every route, a bad body is answered before
    // a 404/403, and nothing is stored.
    async modelLog({ body, params, principal }) {
      const reader = new LogBodyReader(body, params.model_id);
      let refusal: unknown;
      let model: Awaited<ReturnType<typeof ownedModel>> | undefined;
      if (reader.healthy) {
        try {
          model = await ownedModel(params.model_id, principal);
        } catch (err) {
          refusal = err;
        }
      }
      let storeError: unknown;
      if (model) {
        try {
          return await store.modelLog({ model_id: model.id, pieces: reader.pieces() }, contextOf(principal));
        } catch (err) {
          storeError = err;
        }
      }
      await reader.drain();
      throw reader.answer() ?? refusal ?? storeError;
    },
  });
}
