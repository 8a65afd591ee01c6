// The metric history: per step and split, ART's aggregates over every log recorded there,
// combined from the sums stored with each log (the reference's worked example, split over two
// logs, gives the reference's values), without reading trajectories; logs stored before the sums
// existed get theirs computed once from their rows.
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { createReq, ctx, logReq, modelsOf } from './model-fixtures.ts';

describeEachDialect('models: metric history', (getDb) => {
  it('combines the logs of each step and split exactly, and filters by split and steps', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const { id } = await models.modelCreate(createReq({ project: 'history', name: 'combined' }), ctx);
    // art-trajectories.md §6 worked example, as two logs at step 0.
    await models.modelLog(logReq(id, 'val', [{ trajectories: [{ reward: 1, metrics: { correct: true } }, { reward: 0 }] }]), ctx);
    await models.modelLog(
      logReq(id, 'val', [{ trajectories: [{ reward: 0.5 }], exceptions: [{ type: 'Timeout', message: 'slow' }] }]),
      ctx,
    );
    await models.modelLog(logReq(id, 'train', [{ trajectories: [{ reward: 0.25 }, { reward: 0.75 }], metrics: { size: 2 } }]), ctx);
    await models.modelCheckpointCreate({ model_id: id, step: 1 }, ctx);
    await models.modelLog(logReq(id, 'train', [{ trajectories: [{ reward: 1 }, { reward: 1 }] }]), ctx);

    const all = await models.modelMetricsHistory({ model_id: id }, ctx);
    expect(all.data).toEqual([
      {
        step: 0,
        split: 'train',
        log_count: 1,
        trajectory_count: 2,
        group_count: 1,
        metrics: { reward: 0.5, exception_rate: 0, reward_std_dev: 0.25, 'group/size': 2 },
      },
      {
        step: 0,
        split: 'val',
        log_count: 2,
        trajectory_count: 3,
        group_count: 2,
        metrics: { reward: 0.5, exception_rate: 0.25, correct: 1, reward_std_dev: 0.5 },
      },
      {
        step: 1,
        split: 'train',
        log_count: 1,
        trajectory_count: 2,
        group_count: 1,
        metrics: { reward: 1, exception_rate: 0, reward_std_dev: 0 },
      },
    ]);
    expect((await models.modelMetricsHistory({ model_id: id, split: 'val' }, ctx)).data.map((p) => [p.step, p.split])).toEqual([
      [0, 'val'],
    ]);
    expect((await models.modelMetricsHistory({ model_id: id, from_step: 1 }, ctx)).data.map((p) => p.step)).toEqual([1]);
    expect((await models.modelMetricsHistory({ model_id: id, to_step: 0, split: 'train' }, ctx)).data.map((p) => p.step)).toEqual([0]);

    // The history reads the logs' sums, not their trajectories.
    await db.kysely.deleteFrom('trajectories').where('project_id', '=', 'acme/history').execute();
    expect(await models.modelMetricsHistory({ model_id: id }, ctx)).toEqual(all);
  });

  it('computes and stores the sums of a log stored before they existed', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const { id } = await models.modelCreate(createReq({ project: 'history', name: 'legacy' }), ctx);
    const groups = [
      {
        trajectories: [
          { reward: 1, metrics: { turns: 3 } },
          { reward: 0, metrics: { turns: 1 } },
        ],
        metrics: { hard: true },
      },
      { trajectories: [], exceptions: [{ type: 'E', message: 'x' }] },
    ];
    const logged = await models.modelLog(logReq(id, 'val', groups), ctx);
    const expected = Object.fromEntries(Object.entries(logged.metrics).map(([k, v]) => [k.replace(/^val\//, ''), v]));
    await db.kysely.updateTable('trajectory_logs').set({ sums: null }).where('id', '=', logged.log_id).execute();

    const history = await models.modelMetricsHistory({ model_id: id }, ctx);
    expect(history.data).toEqual([{ step: 0, split: 'val', log_count: 1, trajectory_count: 2, group_count: 2, metrics: expected }]);
    const row = await db.kysely.selectFrom('trajectory_logs').select('sums').where('id', '=', logged.log_id).executeTakeFirstOrThrow();
    expect(row.sums).not.toBeNull();
  });
});
