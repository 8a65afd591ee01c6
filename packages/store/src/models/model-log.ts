// POST /v1/preview/models/{id}/log: stores one batch of trajectory groups and answers its
// aggregate metrics.
//
// Everything is written in ONE transaction: a trajectory_logs row (metrics and counts), one
// trajectory_groups row per group (the normalised group without its trajectories) and one
// trajectories row per trajectory (reward, and the normalised trajectory as JSON). A failure at
// any point leaves nothing behind. Every request is a new log: ART never retries /log, so a
// resent batch is a user re-run and is kept (no silent dedupe).
//
// The step is the model's latest checkpoint step, or 0 without checkpoints (ART's get_step());
// Weft has no checkpoints yet, so it is 0.
import type * as T from '@weft/types';
import { jsonText, nowIso, type Db, type Dialect, type NewRow } from '../db/index.ts';
import { uuidv7 } from '../ids.ts';
import { chunked, DEFAULT_CHUNK_LIMITS, type ChunkLimits, type SizedRow } from './chunks.ts';
import { computeLogMetrics } from './log-metrics.ts';
import { findModel } from './model-read.ts';
import { normaliseGroup, normaliseTrajectory, trajectoriesOf } from './normalise-trajectories.ts';

type Json = Record<string, unknown>;

export async function logTrajectories(
  db: Db,
  req: T.ModelLogReq & { model_id: string },
  limits: ChunkLimits = DEFAULT_CHUNK_LIMITS,
): Promise<T.ModelLogRes> {
  const model = await findModel(db, req.model_id);
  const groups = req.trajectory_groups as unknown as Json[];
  const metrics = computeLogMetrics(req.split, groups);
  let trajectoryCount = 0;
  for (const group of groups) trajectoryCount += trajectoriesOf(group).length;

  const log_id = uuidv7();
  const step = 0;
  const project_id = model.project_id;
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('trajectory_logs')
      .values({
        project_id,
        id: log_id,
        model_id: model.id,
        split: req.split,
        step,
        created_at: nowIso(),
        metrics: jsonText(db, JSON.stringify(metrics)),
        group_count: groups.length,
        trajectory_count: trajectoryCount,
      })
      .execute();
    // Groups first: each trajectory row references its group row.
    for (const chunk of chunked(groupRows(db.dialect, project_id, log_id, groups), limits)) {
      await trx.insertInto('trajectory_groups').values(chunk).execute();
    }
    for (const chunk of chunked(trajectoryRows(db.dialect, project_id, log_id, groups), limits)) {
      await trx.insertInto('trajectories').values(chunk).execute();
    }
  });
  return { log_id, step, trajectory_count: trajectoryCount, metrics };
}

export type Values<T extends 'trajectory_groups' | 'trajectories'> = Omit<NewRow<T>, 'data'> & { data: ReturnType<typeof jsonText> };

/** The stored row of a group (normalised, without its trajectories). */
export function groupRow(dialect: Dialect, project_id: string, log_id: string, group_index: number, group: Json): SizedRow<Values<'trajectory_groups'>> {
  const text = JSON.stringify(normaliseGroup(group));
  return { row: { project_id, log_id, group_index, data: jsonText(dialect, text) }, bytes: text.length };
}

/** The stored row of a trajectory (normalised). */
export function trajectoryRow(
  dialect: Dialect,
  project_id: string,
  log_id: string,
  group_index: number,
  trajectory_index: number,
  trajectory: Json,
): SizedRow<Values<'trajectories'>> {
  const normalised = normaliseTrajectory(trajectory);
  const text = JSON.stringify(normalised);
  return {
    row: { project_id, log_id, group_index, trajectory_index, reward: normalised.reward as number, data: jsonText(dialect, text) },
    bytes: text.length,
  };
}

function* groupRows(dialect: Dialect, project_id: string, log_id: string, groups: Json[]): Generator<SizedRow<Values<'trajectory_groups'>>> {
  for (const [group_index, group] of groups.entries()) yield groupRow(dialect, project_id, log_id, group_index, group);
}

function* trajectoryRows(dialect: Dialect, project_id: string, log_id: string, groups: Json[]): Generator<SizedRow<Values<'trajectories'>>> {
  for (const [group_index, group] of groups.entries()) {
    for (const [trajectory_index, trajectory] of trajectoriesOf(group).entries()) {
      yield trajectoryRow(dialect, project_id, log_id, group_index, trajectory_index, trajectory);
    }
  }
}
