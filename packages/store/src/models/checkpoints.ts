// A model's checkpoints (ART's /v1/preview/models/{id}/checkpoints): register, list by step with
// ART's cursor paging, delete by step; and the two things the trajectory log needs from them, the
// current step and the metrics attached to it.
import { conflict, notFound, uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import type { Transaction } from 'kysely';
import { jsonParam, nowIso, readJson, type Database, type Db, type Row } from '../db/index.ts';
import { lockRowsForUpdate } from '../db/lock.ts';
import { findModel } from './model-read.ts';

type Metrics = Record<string, number>;

function toCheckpointSchema(db: Db, row: Row<'model_checkpoints'>): T.CheckpointSchema {
  return { id: row.id, step: row.step, metrics: readJson(db, row.metrics) as Metrics, created_at: row.created_at };
}

const sameMetrics = (a: Metrics, b: Metrics) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
};

/** POST: registers a step; the same step with the same metrics again returns it, with others is a 409. */
export async function checkpointCreate(db: Db, req: T.CheckpointCreateReq & { model_id: string }): Promise<T.CheckpointSchema> {
  const model = await findModel(db, req.model_id);
  const metrics = req.metrics ?? {};
  const inserted = await db.kysely
    .insertInto('model_checkpoints')
    .values({
      project_id: model.project_id,
      model_id: model.id,
      step: req.step,
      id: uuidv7(),
      metrics: jsonParam(db, metrics),
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['project_id', 'model_id', 'step']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return toCheckpointSchema(db, inserted);
  const existing = await db.kysely
    .selectFrom('model_checkpoints')
    .selectAll()
    .where('project_id', '=', model.project_id)
    .where('model_id', '=', model.id)
    .where('step', '=', req.step)
    .executeTakeFirstOrThrow();
  const stored = toCheckpointSchema(db, existing);
  if (!sameMetrics(stored.metrics, metrics))
    throw conflict(`Step ${req.step} of model ${model.id} is already registered with other metrics`);
  return stored;
}

/** GET: a page by step; `after` is the id of the last checkpoint of the previous page. */
export async function checkpointsList(
  db: Db,
  req: { model_id: string; after?: string; limit?: number; order?: 'asc' | 'desc' },
): Promise<T.CheckpointList> {
  const model = await findModel(db, req.model_id);
  const order = req.order ?? 'asc';
  const limit = req.limit ?? 20;
  let query = db.kysely
    .selectFrom('model_checkpoints')
    .selectAll()
    .where('project_id', '=', model.project_id)
    .where('model_id', '=', model.id);
  if (req.after !== undefined) {
    const after = await db.kysely
      .selectFrom('model_checkpoints')
      .select('step')
      .where('project_id', '=', model.project_id)
      .where('model_id', '=', model.id)
      .where('id', '=', req.after)
      .executeTakeFirst();
    if (!after) throw notFound(`Checkpoint ${req.after} of model ${model.id} not found`);
    query = query.where('step', order === 'asc' ? '>' : '<', after.step);
  }
  // One more than the page: whether another page follows.
  const rows = await query
    .orderBy('step', order)
    .limit(limit + 1)
    .execute();
  const data = rows.slice(0, limit).map((row) => toCheckpointSchema(db, row));
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > limit };
}

/** DELETE: the listed steps; logs keep the step they were recorded at. */
export async function checkpointsDelete(db: Db, req: T.CheckpointsDeleteReq & { model_id: string }): Promise<T.CheckpointsDeleteRes> {
  const model = await findModel(db, req.model_id);
  const steps = [...new Set(req.steps)];
  if (steps.length === 0) return { deleted_count: 0, not_found_steps: [] };
  const deleted = await db.kysely
    .deleteFrom('model_checkpoints')
    .where('project_id', '=', model.project_id)
    .where('model_id', '=', model.id)
    .where('step', 'in', steps)
    .returning('step')
    .execute();
  const found = new Set(deleted.map((r) => r.step));
  return { deleted_count: deleted.length, not_found_steps: steps.filter((s) => !found.has(s)) };
}

/** The model's current step: its latest checkpoint's, 0 before any (ART's get_step()). */
export async function currentStep(trx: Transaction<Database>, projectId: string, modelId: string): Promise<number> {
  const latest = await trx
    .selectFrom('model_checkpoints')
    .select('step')
    .where('project_id', '=', projectId)
    .where('model_id', '=', modelId)
    .orderBy('step', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest?.step ?? 0;
}

/** Adds a log's aggregates to the checkpoint of its step, if there is one (a later log's value wins). */
export async function attachLogMetrics(
  trx: Transaction<Database>,
  db: Db,
  projectId: string,
  modelId: string,
  step: number,
  metrics: Metrics,
): Promise<void> {
  const row = await trx
    .selectFrom('model_checkpoints')
    .select('metrics')
    .where('project_id', '=', projectId)
    .where('model_id', '=', modelId)
    .where('step', '=', step)
    // Two logs at one step must not lose each other's keys (SQLite transactions run one at a time).
    .$call((q) => lockRowsForUpdate(db.dialect, q))
    .executeTakeFirst();
  if (!row) return;
  const merged = { ...(readJson(db, row.metrics) as Metrics), ...metrics };
  await trx
    .updateTable('model_checkpoints')
    .set({ metrics: jsonParam(db, merged) })
    .where('project_id', '=', projectId)
    .where('model_id', '=', modelId)
    .where('step', '=', step)
    .execute();
}
