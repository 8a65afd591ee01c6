// POST /v1/preview/models: ART's register(), a get-or-create keyed by (entity, project, name).
// Ids are UUIDv7: models made in the same millisecond list in the order they were made.
//
// INSERT … ON CONFLICT DO NOTHING, then read whichever row won: concurrent creates of the same
// model (two replicas, or a retried register) end with one model, and every caller that asked for
// return_existing gets that one. An existing model is returned as it is, even when the request
// names another base_model (ART compares nothing either).
import { conflict, uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import { toModelSchema } from './to-model-schema.ts';

export async function modelCreate(db: Db, req: T.ModelCreateReq & { entity: string }): Promise<T.ModelSchema> {
  const project_id = `${req.entity}/${req.project}`;
  const inserted = await db.kysely
    .insertInto('models')
    .values({
      id: uuidv7(),
      project_id,
      entity: req.entity,
      project: req.project,
      name: req.name,
      base_model: req.base_model,
      run_id: null,
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return toModelSchema(inserted);

  const existing = await db.kysely
    .selectFrom('models')
    .selectAll()
    .where('project_id', '=', project_id)
    .where('name', '=', req.name)
    .executeTakeFirst();
  // Deleted between the insert and this read: the caller may simply register again.
  if (!existing) throw conflict(`Model ${req.name} in ${project_id} was deleted while it was being registered; register it again`);
  if (req.return_existing !== true) throw conflict(`Model ${req.name} already exists in ${project_id}`);
  return toModelSchema(existing);
}
