// Two replicas registering the same model at the same moment, each through its own PostgreSQL
// pool: one model, which both get back.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/index.ts';
import { describeIfPostgres } from '../dialects.ts';
import { createReq, ctx, modelsOf } from './model-fixtures.ts';

describeIfPostgres('model create from two replicas [postgres]', (getUrl) => {
  let replicaA: Db | undefined;
  let replicaB: Db | undefined;
  beforeAll(async () => {
    replicaA = await openDatabase(getUrl());
    await migrateToLatest(replicaA);
    replicaB = await openDatabase(getUrl());
  });
  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
  });

  it('creates each model once', async () => {
    const a = modelsOf(replicaA as Db);
    const b = modelsOf(replicaB as Db);
    for (let round = 0; round < 20; round++) {
      const req = createReq({ project: 'race', name: `model-${round}` });
      const [x, y, z, w] = await Promise.all([a.modelCreate(req, ctx), b.modelCreate(req, ctx), a.modelCreate(req, ctx), b.modelCreate(req, ctx)]);
      expect(new Set([x.id, y.id, z.id, w.id]).size).toBe(1);
    }
    const rows = await (replicaA as Db).kysely.selectFrom('models').select('id').where('project_id', '=', 'acme/race').execute();
    expect(rows).toHaveLength(20);
  });
});
