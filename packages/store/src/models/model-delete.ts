// DELETE /v1/preview/models/{id}: the model, its checkpoints and its trajectory logs, in one
// transaction (all or nothing). A run can hold millions of trajectories: they are deleted
// DELETE_BATCH rows per statement, children first (trajectories → groups → logs, as the foreign
// keys require), with a turn for the event loop between statements on SQLite, whose statements
// run on the main thread.
import { TurnClock } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../db/index.ts';
import { statementsHoldEventLoop } from '../db/dialect-event-loop.ts';
import { findModel } from './model-read.ts';

const DELETE_BATCH = 2000;

export async function modelDelete(db: Db, modelId: string): Promise<T.ModelDeleteRes> {
  const model = await findModel(db, modelId);
  const p = model.project_id;
  const clock = new TurnClock();
  return db.kysely.transaction().execute(async (trx) => {
    const logsOfModel = sql`select id from trajectory_logs where project_id = ${p} and model_id = ${model.id}`;
    await deleteInBatches(
      trx,
      db,
      clock,
      (limit) =>
        sql`delete from trajectories where project_id = ${p} and (log_id, group_index, trajectory_index) in (
        select log_id, group_index, trajectory_index from trajectories
        where project_id = ${p} and log_id in (${logsOfModel}) limit ${limit})`,
    );
    await deleteInBatches(
      trx,
      db,
      clock,
      (limit) =>
        sql`delete from trajectory_groups where project_id = ${p} and (log_id, group_index) in (
        select log_id, group_index from trajectory_groups
        where project_id = ${p} and log_id in (${logsOfModel}) limit ${limit})`,
    );
    const logs = await trx.deleteFrom('trajectory_logs').where('project_id', '=', p).where('model_id', '=', model.id).executeTakeFirst();
    const checkpoints = await trx
      .deleteFrom('model_checkpoints')
      .where('project_id', '=', p)
      .where('model_id', '=', model.id)
      .executeTakeFirst();
    await trx.deleteFrom('models').where('id', '=', model.id).execute();
    return {
      model_id: model.id,
      deleted_checkpoints: Number(checkpoints.numDeletedRows),
      deleted_run: false,
      deleted_logs: Number(logs.numDeletedRows),
    };
  });
}

async function deleteInBatches(
  trx: Transaction<Database>,
  db: Db,
  clock: TurnClock,
  statement: (limit: number) => ReturnType<typeof sql>,
): Promise<void> {
  for (;;) {
    const result = await statement(DELETE_BATCH).execute(trx);
    if (Number(result.numAffectedRows ?? 0) < DELETE_BATCH) return;
    if (statementsHoldEventLoop(db)) await clock.pass();
  }
}
