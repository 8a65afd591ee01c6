// Server only: an ART model is registered once, read back, and takes trajectory logs.
import { describe, expect, test } from 'vitest';
import { logOf } from '../cases/models.ts';
import { expectStatus, type SuiteContext } from '../suite-context.ts';

export function defineModelRoundTrip(s: SuiteContext): void {
  describe('models and trajectories', () => {
    test('create, get existing, read, log twice', async () => {
      const api = s.client({ scheme: 'bearer', key: 'valid' });
      const c = s.context();
      const body = { entity: c.entity, project: c.project, name: c.unique('agent'), base_model: 'OpenPipe/Qwen3-14B-Instruct' };

      const model = await api.POST('/v1/preview/models', { body: { ...body, return_existing: true } });
      expect(model).toMatchObject({ entity: c.entity, project: c.project, name: body.name, base_model: body.base_model });
      expect((await api.POST('/v1/preview/models', { body: { ...body, return_existing: true } })).id).toBe(model.id);
      await expectStatus(api.POST('/v1/preview/models', { body: { ...body, return_existing: false } }), 409);
      expect(await api.GET('/v1/preview/models/{model_id}', { params: { path: { model_id: model.id } } })).toEqual(model);

      const log = () =>
        api.POST('/v1/preview/models/{model_id}/log', {
          params: { path: { model_id: model.id } },
          body: { ...logOf(), model_id: model.id },
        });
      const first = await log();
      expect(first.trajectory_count).toBe(2);
      // ART's aggregates of rewards 1 and 0, metrics correct true/false and turns 2/1.
      expect(first.metrics).toMatchObject({ 'val/reward': 0.5, 'val/exception_rate': 0, 'val/correct': 0.5, 'val/turns': 1.5 });
      expect(first.metrics['val/reward_std_dev']).toBeCloseTo(0.5);
      const second = await log(); // stored again, no dedupe
      expect(second.log_id).not.toBe(first.log_id);
      expect(second.trajectory_count).toBe(2);
    });

    test("a null entity means the key owner's default entity", async () => {
      const api = s.client({ scheme: 'bearer', key: 'valid' });
      const c = s.context();
      const model = await api.POST('/v1/preview/models', {
        body: { entity: null, project: c.project, name: c.unique('agent'), base_model: 'b' },
      });
      expect(model.entity).not.toBe('');
    });
  });
}
