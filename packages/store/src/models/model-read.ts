// GET /v1/preview/models/{id}: models are keyed by id alone (the HTTP layer checks the entity).
import { notFound } from '@weft/core';
import type * as T from '@weft/types';
import type { Db, Row } from '../db/index.ts';
import { toModelSchema } from './to-model-schema.ts';

export async function findModel(db: Db, modelId: string): Promise<Row<'models'>> {
  const row = await db.kysely.selectFrom('models').selectAll().where('id', '=', modelId).executeTakeFirst();
  // ART's register() creates models; a client that only logs learns what to call.
  if (!row) throw notFound(`Model ${modelId} not found; create it with POST /v1/preview/models`);
  return row;
}

export async function modelRead(db: Db, modelId: string): Promise<T.ModelSchema> {
  return toModelSchema(await findModel(db, modelId));
}
