// GET /v1/preview/models/{id}/metrics: per step and split, ART's aggregates over every log
// recorded there. Each log stores the sums behind its aggregates (LogSums), so a step's logs
// combine exactly without reading a trajectory: a run costs its logs. A log stored before those
// sums existed (migration 0005) has its sums computed once from its rows, fed to the same
// LogMetrics in the order they were logged, and stored.
import type * as T from '@weft/types';
import { jsonText, readJson, type Db } from '../db/index.ts';
import { LogMetrics, metricsOfSums, type LogSums } from './log-metrics.ts';
import { findModel } from './model-read.ts';

interface HistoryReq {
  model_id: string;
  split?: string;
  from_step?: number;
  to_step?: number;
}

export async function metricsHistory(db: Db, req: HistoryReq): Promise<T.MetricHistory> {
  const model = await findModel(db, req.model_id);
  let query = db.kysely
    .selectFrom('trajectory_logs')
    .select(['id', 'step', 'split', 'group_count', 'trajectory_count', 'sums'])
    .where('project_id', '=', model.project_id)
    .where('model_id', '=', model.id);
  if (req.split !== undefined) query = query.where('split', '=', req.split);
  if (req.from_step !== undefined) query = query.where('step', '>=', req.from_step);
  if (req.to_step !== undefined) query = query.where('step', '<=', req.to_step);
  const logs = await query.orderBy('step').orderBy('split').orderBy('id').execute();

  const data: T.MetricHistoryPoint[] = [];
  let sums: LogSums[] = [];
  for (const [i, log] of logs.entries()) {
    const last = data.at(-1);
    if (!last || last.step !== log.step || last.split !== log.split) {
      if (last) last.metrics = metricsOfSums(sums);
      data.push({ step: log.step, split: log.split, log_count: 0, trajectory_count: 0, group_count: 0, metrics: {} });
      sums = [];
    }
    const point = data.at(-1)!;
    point.log_count += 1;
    point.trajectory_count += log.trajectory_count;
    point.group_count += log.group_count;
    sums.push(log.sums === null ? await storedLogSums(db, model.project_id, log.id) : (readJson(db, log.sums) as LogSums));
    if (i === logs.length - 1) point.metrics = metricsOfSums(sums);
  }
  return { data };
}

/** The sums of a log stored before migration 0005, from its rows; stored for next time. */
async function storedLogSums(db: Db, projectId: string, logId: string): Promise<LogSums> {
  const [groups, trajectories] = await Promise.all([
    db.kysely
      .selectFrom('trajectory_groups')
      .select(['group_index', 'data'])
      .where('project_id', '=', projectId)
      .where('log_id', '=', logId)
      .orderBy('group_index')
      .execute(),
    db.kysely
      .selectFrom('trajectories as t')
      // The content is the row of the log's table, or (logs before migration 0006) t.data.
      .leftJoin('rows as r', (join) => join.onRef('r.project_id', '=', 't.project_id').onRef('r.digest', '=', 't.row_digest'))
      .select(['t.group_index', 't.trajectory_index', 'r.val', 't.data'])
      .where('t.project_id', '=', projectId)
      .where('t.log_id', '=', logId)
      .orderBy('t.group_index')
      .orderBy('t.trajectory_index')
      .execute(),
  ]);
  const metrics = new LogMetrics();
  let t = 0;
  for (const group of groups) {
    let inGroup = 0;
    for (; t < trajectories.length && trajectories[t]!.group_index === group.group_index; t++, inGroup++) {
      const { val, data } = trajectories[t]!;
      metrics.addTrajectory(readJson(db, val ?? data) as Record<string, unknown>, group.group_index, inGroup);
    }
    metrics.endGroup(readJson(db, group.data) as Record<string, unknown>, group.group_index, inGroup);
  }
  const sums = metrics.sums();
  await db.kysely
    .updateTable('trajectory_logs')
    .set({ sums: jsonText(db, JSON.stringify(sums)) })
    .where('project_id', '=', projectId)
    .where('id', '=', logId)
    .execute();
  return sums;
}
