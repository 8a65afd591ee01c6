// Two replicas registering the same model at the same moment, each through its own PostgreSQL
// pool: one model, which both get back.
import { expect, it } from 'vitest';
import { describeTwoReplicas } from '../dialects.ts';
import { createReq, ctx, modelsOf } from './model-fixtures.ts';

describeTwoReplicas('model create from two replicas [postgres]', (replicas) => {
  it('creates each model once', async () => {
    const a = modelsOf(replicas()[0]);
    const b = modelsOf(replicas()[1]);
    for (let round = 0; round < 20; round++) {
      const req = createReq({ project: 'race', name: `model-${round}` });
      const [x, y, z, w] = await Promise.all([
        a.modelCreate(req, ctx),
        b.modelCreate(req, ctx),
        a.modelCreate(req, ctx),
        b.modelCreate(req, ctx),
      ]);
      expect(new Set([x.id, y.id, z.id, w.id]).size).toBe(1);
    }
    const rows = await replicas()[0].kysely.selectFrom('models').select('id').where('project_id', '=', 'acme/race').execute();
    expect(rows).toHaveLength(20);
  });
});
