// A model's trajectories read back (GET /v1/preview/models/{id}/trajectories): every page size
// and both orders walk the same sequence with `after`, filters narrow it, and a log stored before
// logs had tables (migration 0006) reads back from its own rows with null digests.
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import { jsonText } from '../../src/db/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { createReq, ctx, logReq, modelsOf } from './model-fixtures.ts';

describeEachDialect('models: trajectories read back', (getDb) => {
  async function walk(
    models: ReturnType<typeof modelsOf>,
    req: Omit<Parameters<ReturnType<typeof modelsOf>['modelTrajectoriesList']>[0], 'after'>,
  ) {
    const seen: T.TrajectoryRecord[] = [];
    let after: string | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await models.modelTrajectoriesList({ ...req, ...(after === undefined ? {} : { after }) }, ctx);
      seen.push(...page.data);
      if (!page.has_more) return seen;
      after = page.last_id!;
    }
    throw new Error('paging did not end');
  }

  it('pages the same sequence at every size, in both orders, and filters by split and step', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const { id } = await models.modelCreate(createReq({ project: 'read-back', name: 'pages' }), ctx);
    const groups = (n: number, base: number) => [
      { trajectories: Array.from({ length: n }, (_, t) => ({ reward: base + t })) },
      { trajectories: [{ reward: base + 10 }] },
    ];
    await models.modelLog(logReq(id, 'train', groups(3, 0)), ctx);
    await models.modelLog(logReq(id, 'val', groups(1, 100)), ctx);
    await models.modelCheckpointCreate({ model_id: id, step: 4 }, ctx);
    await models.modelLog(logReq(id, 'val', groups(2, 200)), ctx);
    const rewards = (ts: T.TrajectoryRecord[]) => ts.map((t) => t.trajectory.reward);

    const all = await walk(models, { model_id: id, limit: 100 });
    expect(rewards(all)).toEqual([0, 1, 2, 10, 100, 110, 200, 201, 210]);
    expect(all.map((t) => t.step)).toEqual([0, 0, 0, 0, 0, 0, 4, 4, 4]);
    for (const limit of [1, 2, 3, 4, 8, 9]) {
      expect((await walk(models, { model_id: id, limit })).map((t) => t.id)).toEqual(all.map((t) => t.id));
      expect((await walk(models, { model_id: id, limit, order: 'desc' })).map((t) => t.id)).toEqual(all.map((t) => t.id).reverse());
    }
    expect(rewards(await walk(models, { model_id: id, split: 'val', limit: 2 }))).toEqual([100, 110, 200, 201, 210]);
    expect(rewards(await walk(models, { model_id: id, step: 0, limit: 2, order: 'desc' }))).toEqual([110, 100, 10, 2, 1, 0]);
    expect(rewards(await walk(models, { model_id: id, split: 'train', step: 4 }))).toEqual([]);
    // Each page knows whether another follows, exactly.
    const firstTwo = await models.modelTrajectoriesList({ model_id: id, step: 4, limit: 3 }, ctx);
    expect([firstTwo.data.length, firstTwo.has_more]).toEqual([3, false]);

    for (const after of ['nope', `${all[0]!.log_id}.7.0`, `${all[0]!.log_id}.0.0.0`]) {
      await expect(models.modelTrajectoriesList({ model_id: id, after }, ctx)).rejects.toMatchObject({ status: 404 });
    }
  });

  it('reads a log stored before logs had tables from its own rows, with null digests', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const { id } = await models.modelCreate(createReq({ project: 'read-back', name: 'legacy' }), ctx);
    const logged = await models.modelLog(
      logReq(id, 'val', [{ trajectories: [{ reward: 1, metrics: { turns: 2 } }, { extra: 'kept' }] }]),
      ctx,
    );
    const before = await models.modelTrajectoriesList({ model_id: id }, ctx);
    // What migration 0006 leaves of an older log: the content in trajectories.data, no digests.
    for (const t of before.data) {
      const { group_index: _g, trajectory_index: _t, ...content } = t.trajectory;
      await db.kysely
        .updateTable('trajectories')
        .set({ data: jsonText(db, JSON.stringify(content)), row_digest: null })
        .where('log_id', '=', logged.log_id)
        .where('group_index', '=', t.trajectory.group_index)
        .where('trajectory_index', '=', t.trajectory.trajectory_index)
        .execute();
    }
    await db.kysely.updateTable('trajectory_logs').set({ table_digest: null }).where('id', '=', logged.log_id).execute();

    const after = await models.modelTrajectoriesList({ model_id: id }, ctx);
    expect(after.data).toEqual(before.data.map((t) => ({ ...t, table_digest: null, row_digest: null })));
    expect(after.data[1]!.trajectory).toMatchObject({ extra: 'kept', reward: 0, group_index: 0, trajectory_index: 1 });
  });
});
