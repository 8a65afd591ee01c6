// Deleting a model takes everything under it, in bounded statements with turns for the event
// loop between them, and leaves other models alone.
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { turnsDuring } from '../event-loop-turns.ts';
import { createReq, ctx, logReq, modelsOf } from './model-fixtures.ts';

describeEachDialect(
  'models: delete',
  (getDb) => {
    it('deletes a model, its checkpoints and its logs in bounded steps, and nothing else', async () => {
      const db = getDb();
      const models = modelsOf(db);
      const doomed = await models.modelCreate(createReq({ project: 'delete', name: 'doomed' }), ctx);
      const kept = await models.modelCreate(createReq({ project: 'delete', name: 'kept' }), ctx);
      // 12,000 trajectories: six of the delete's batches.
      const groups = Array.from({ length: 40 }, (_, g) => ({
        trajectories: Array.from({ length: 300 }, (_, t) => ({ reward: (g * t) % 3 })),
      }));
      for (const m of [doomed, kept]) {
        await models.modelLog(logReq(m.id, 'train', groups), ctx);
        await models.modelCheckpointCreate({ model_id: m.id, step: 1 }, ctx);
        await models.modelLog(logReq(m.id, 'val', groups.slice(0, 1)), ctx);
      }
      const { value, turns } = await turnsDuring(() => models.modelDelete({ model_id: doomed.id }, ctx));
      expect(value).toEqual({ model_id: doomed.id, deleted_checkpoints: 1, deleted_run: false, deleted_logs: 2 });
      expect(turns).toBeGreaterThan(2);

      const left = async (table: 'trajectories' | 'trajectory_groups' | 'trajectory_logs') =>
        (await db.kysely.selectFrom(table).selectAll().where('project_id', '=', 'acme/delete').execute()).length;
      expect(await left('trajectory_logs')).toBe(2);
      expect(await left('trajectory_groups')).toBe(41);
      expect(await left('trajectories')).toBe(12_300);
      await expect(models.modelRead({ model_id: doomed.id }, ctx)).rejects.toMatchObject({ status: 404 });
      expect((await models.modelCheckpointsList({ model_id: kept.id }, ctx)).data.map((c) => c.step)).toEqual([1]);
    });
  },
  { sqliteFile: true },
);
