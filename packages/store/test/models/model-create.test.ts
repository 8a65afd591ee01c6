// ART models: get-or-create and read.
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { createReq, ctx, modelsOf } from './model-fixtures.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeEachDialect('models: create and read', (getDb) => {
  it('creates a model under entity/project and reads it back', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'create' }), ctx);
    expect(model).toEqual({
      id: expect.stringMatching(UUID),
      entity: 'acme',
      project: 'create',
      name: 'email-agent',
      base_model: 'OpenPipe/Qwen3-14B-Instruct',
      run_id: null,
    });
    expect(await models.modelRead({ model_id: model.id }, ctx)).toEqual(model);
    const row = await db.kysely.selectFrom('models').select('project_id').where('id', '=', model.id).executeTakeFirstOrThrow();
    expect(row.project_id).toBe('acme/create');
  });

  it('returns the existing model with return_existing, else answers 409', async () => {
    const models = modelsOf(getDb());
    const first = await models.modelCreate(createReq({ project: 'existing', return_existing: false }), ctx);
    // The existing model wins as it is, even with another base model in the request.
    expect(await models.modelCreate(createReq({ project: 'existing', base_model: 'Qwen/Qwen3-30B-A3B-Instruct-2507' }), ctx)).toEqual(
      first,
    );
    await expect(models.modelCreate(createReq({ project: 'existing', return_existing: false }), ctx)).rejects.toMatchObject({
      status: 409,
      errorType: 'Conflict',
    });
    const { return_existing: _, ...withoutFlag } = createReq({ project: 'existing' });
    await expect(models.modelCreate(withoutFlag, ctx)).rejects.toMatchObject({ status: 409 });
  });

  it('keys models by entity, project and name', async () => {
    const models = modelsOf(getDb());
    const base = await models.modelCreate(createReq({ project: 'keys' }), ctx);
    const others = [
      await models.modelCreate(createReq({ project: 'keys', name: 'other-agent' }), ctx),
      await models.modelCreate(createReq({ project: 'keys2' }), ctx),
      await models.modelCreate(createReq({ project: 'keys', entity: 'globex' }), ctx),
    ];
    expect(new Set([base.id, ...others.map((m) => m.id)]).size).toBe(4);
  });

  it('yields one model for concurrent creates', async () => {
    const models = modelsOf(getDb());
    const all = await Promise.all(Array.from({ length: 8 }, () => models.modelCreate(createReq({ project: 'race' }), ctx)));
    expect(new Set(all.map((m) => m.id)).size).toBe(1);
    const strict = await Promise.allSettled(
      Array.from({ length: 8 }, () => models.modelCreate(createReq({ project: 'race-strict', return_existing: false }), ctx)),
    );
    expect(strict.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(strict.filter((r) => r.status === 'rejected').map((r) => (r.reason as { status: number }).status)).toEqual(Array(7).fill(409));
  });

  it('answers 404 for an unknown model id', async () => {
    const models = modelsOf(getDb());
    for (const model_id of ['6f1c7b5e-0000-4000-8000-000000000000', 'not-a-uuid']) {
      await expect(models.modelRead({ model_id }, ctx)).rejects.toMatchObject({
        status: 404,
        errorType: 'NotFoundError',
        message: `Model ${model_id} not found; create it with POST /v1/preview/models`,
      });
    }
  });
});
