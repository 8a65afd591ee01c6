// GET /projects: every project holding data in the caller's entities, whichever table holds it,
// sorted, capped by limit; an entity's name is never a prefix match for another's.
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { describeEachDialect } from '../dialects.ts';
import { catalogue, ctx, startReq } from '../calls/call-fixtures.ts';

describeEachDialect('projects list', (getDb) => {
  it('lists the projects of the asked entities from every table, once each, sorted', async () => {
    const store = createStore({ db: getDb(), catalogue });
    await store.callStart(startReq('acme/bot'), ctx);
    await store.callStart(startReq('acme/bot'), ctx);
    await store.objCreate({ obj: { project_id: 'acme/data', object_id: 'ds', val: { rows: [] } } }, { ...ctx, source: undefined });
    await store.modelCreate({ entity: 'acme', project: 'rl', name: 'agent', base_model: 'Qwen', return_existing: false }, ctx);
    await store.annotationQueueCreate({ project_id: 'acme/review', name: 'q', description: '', scorer_refs: [] }, ctx);
    // Names that share a prefix with "acme", before and after it in byte order.
    for (const project of ['acme2/x', 'acme-x/p', 'acme0/p', 'acm/p', 'beta/rl']) await store.callStart(startReq(project), ctx);

    const acme = await store.projectsList({ entities: ['acme'] }, ctx);
    expect(acme).toEqual({
      projects: ['acme/bot', 'acme/data', 'acme/review', 'acme/rl'].map((id) => ({ project_id: id, entity: 'acme', project: id.slice(5) })),
      has_more: false,
    });
    const two = await store.projectsList({ entities: ['beta', 'acme2', 'nobody'] }, ctx);
    expect(two.projects.map((p) => p.project_id)).toEqual(['acme2/x', 'beta/rl']);
    expect((await store.projectsList({ entities: [] }, ctx)).projects).toEqual([]);

    const all = await store.projectsList({ entities: 'all' }, ctx);
    expect(all.projects.map((p) => p.project_id)).toEqual([
      'acm/p',
      'acme-x/p',
      'acme/bot',
      'acme/data',
      'acme/review',
      'acme/rl',
      'acme0/p',
      'acme2/x',
      'beta/rl',
    ]);
    const page = await store.projectsList({ entities: 'all', limit: 3 }, ctx);
    expect(page).toMatchObject({
      has_more: true,
      projects: [{ project_id: 'acm/p' }, { project_id: 'acme-x/p' }, { project_id: 'acme/bot' }],
    });
    expect((await store.projectsList({ entities: 'all', limit: 9 }, ctx)).has_more).toBe(false);
  });
});
