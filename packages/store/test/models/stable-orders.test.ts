// Stable orders of the ART lists: models (created_at, then id), checkpoints (step, unique per
// model), trajectories (step, then log id, group, position) and the metric history (step, then
// split). Rows that tie on the time or the step come back in the tie-break's order, read after
// read and across `after` pages, whatever order they were written in.
import type * as T from '@weft/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonParam, type Db } from '../../src/db/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { createReq, ctx, modelsOf } from './model-fixtures.ts';

const SAME = '2025-06-03T09:00:00.000Z';
const logId = (n: string) => `00000000-0000-7000-8000-0000000000${n}`;

type Page<R> = { data: R[]; has_more: boolean; last_id: string | null };
/** Every page of a cursor-paged list, `after` the last id of the previous one. */
async function walk<R>(read: (after: string | undefined) => Promise<Page<R>>): Promise<R[]> {
  const seen: R[] = [];
  let after: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await read(after);
    seen.push(...page.data);
    if (!page.has_more) return seen;
    after = page.last_id!;
  }
  throw new Error('paging did not end');
}

/** A log as stored before logs had tables and sums (written directly, so its id is chosen). */
async function writeLog(db: Db, project_id: string, model_id: string, id: string, step: number, split: string, groups: number[][]) {
  await db.kysely
    .insertInto('trajectory_logs')
    .values({
      project_id,
      id,
      model_id,
      split,
      step,
      created_at: SAME,
      metrics: jsonParam(db, {}),
      group_count: groups.length,
      trajectory_count: groups.flat().length,
      sums: null,
      table_digest: null,
    })
    .execute();
  for (const [g, rewards] of groups.entries()) {
    await db.kysely
      .insertInto('trajectory_groups')
      .values({ project_id, log_id: id, group_index: g, data: jsonParam(db, {}) })
      .execute();
    for (const [t, reward] of rewards.entries()) {
      await db.kysely
        .insertInto('trajectories')
        .values({ project_id, log_id: id, group_index: g, trajectory_index: t, reward, data: jsonParam(db, { reward }), row_digest: null })
        .execute();
    }
  }
}

describeEachDialect('stable orders: models, checkpoints, trajectories, metric history', (getDb) => {
  const models = () => modelsOf(getDb());

  it('models created in the same millisecond: by id, on every read and page size', async () => {
    const db = getDb();
    const project = 'stable/models';
    const written = ['m4', 'm1', 'zz-late', 'm3', 'm0', 'aa-early', 'm2'];
    for (const id of written) {
      const created_at = id === 'aa-early' ? '2024-01-01T00:00:00.000Z' : id === 'zz-late' ? '2026-01-01T00:00:00.000Z' : SAME;
      await db.kysely
        .insertInto('models')
        .values({
          id,
          project_id: project,
          entity: 'stable',
          project: 'models',
          name: `n-${id}`,
          base_model: 'b',
          run_id: null,
          created_at,
        })
        .execute();
    }
    const expected = ['aa-early', 'm0', 'm1', 'm2', 'm3', 'm4', 'zz-late'];
    for (const limit of [1, 2, 3, 20]) {
      for (let read = 0; read < 2; read++) {
        const seen = await walk((after) => models().modelsList({ project, limit, ...(after === undefined ? {} : { after }) }, ctx));
        expect(
          seen.map((m) => m.id),
          `limit ${limit}`,
        ).toEqual(expected);
      }
    }
  });

  it('checkpoints registered out of step order in one millisecond: by step, both orders', async () => {
    const { id: model_id } = await models().modelCreate(createReq({ project: 'stable-checkpoints' }), ctx);
    for (const step of [3, 1, 4, 0, 2]) await models().modelCheckpointCreate({ model_id, step }, ctx);
    await getDb().kysely.updateTable('model_checkpoints').set({ created_at: SAME }).where('model_id', '=', model_id).execute();
    for (const order of ['asc', 'desc'] as const) {
      const expected = order === 'asc' ? [0, 1, 2, 3, 4] : [4, 3, 2, 1, 0];
      for (const limit of [1, 2, 20]) {
        const seen = await walk((after) =>
          models().modelCheckpointsList({ model_id, limit, order, ...(after === undefined ? {} : { after }) }, ctx),
        );
        expect(
          seen.map((c) => c.step),
          `${order} limit ${limit}`,
        ).toEqual(expected);
      }
    }
  });

  describe('logs at one step', () => {
    let model_id = '';
    beforeAll(async () => {
      const db = getDb();
      const model = await modelsOf(db).modelCreate(createReq({ project: 'stable-trajectories' }), ctx);
      model_id = model.id;
      const project = 'acme/stable-trajectories';
      // Step 0's logs tie on step and created_at; written in an order that is not id order.
      await writeLog(db, project, model_id, logId('0b'), 0, 'val', [[10, 11]]);
      await writeLog(db, project, model_id, logId('01'), 1, 'train', [[40]]);
      await writeLog(db, project, model_id, logId('0c'), 0, 'train', [[30], [31]]);
      await writeLog(db, project, model_id, logId('0a'), 0, 'val', [[20]]);
      await writeLog(db, project, model_id, logId('0d'), 0, 'b-split', [[50]]);
    });

    it('trajectories of logs at one step: by log id, then group and position, at every page size', async () => {
      const expected = [20, 10, 11, 30, 31, 50, 40];
      for (const order of ['asc', 'desc'] as const) {
        for (const limit of [1, 2, 3, 20]) {
          const seen: T.TrajectoryRecord[] = await walk((after) =>
            models().modelTrajectoriesList({ model_id, limit, order, ...(after === undefined ? {} : { after }) }, ctx),
          );
          const rewards = seen.map((t) => t.trajectory.reward);
          expect(rewards, `${order} limit ${limit}`).toEqual(order === 'asc' ? expected : [...expected].reverse());
        }
      }
    });

    it('the metric history of one step: by split, the same on every read', async () => {
      for (let read = 0; read < 3; read++) {
        const { data } = await models().modelMetricsHistory({ model_id }, ctx);
        expect(data.map((p) => [p.step, p.split, p.log_count, p.metrics.reward])).toEqual([
          [0, 'b-split', 1, 50],
          [0, 'train', 1, 30.5],
          [0, 'val', 2, (10 + 11 + 20) / 3],
          [1, 'train', 1, 40],
        ]);
      }
    });
  });
});
