// GET /projects: a key sees the projects of its own entities and nothing of another's; without a
// key, 401.
import { expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

describeEachDatabase('GET /projects', (getServer) => {
  it('lists the caller’s projects only', async () => {
    const alice = getServer().client('alice');
    const bob = getServer().client('bob');
    const call = (project_id: string) => ({
      start: { project_id, op_name: 'step', started_at: '2026-11-25T08:00:00.000Z', attributes: {}, inputs: {}, trace_id: undefined },
    });
    await alice.POST('/call/start', { body: call('acme/bot') as never });
    await alice.POST('/obj/create', { body: { obj: { project_id: 'acme/data', object_id: 'ds', val: { a: 1 } } } });
    await bob.POST('/call/start', { body: call('globex/secret') as never });

    expect(await alice.GET('/projects')).toEqual({
      projects: [
        { project_id: 'acme/bot', entity: 'acme', project: 'bot' },
        { project_id: 'acme/data', entity: 'acme', project: 'data' },
      ],
      has_more: false,
    });
    expect((await bob.GET('/projects')).projects.map((p) => p.project_id)).toEqual(['globex/secret']);
    expect(await alice.GET('/projects', { params: { query: { limit: 1 } } })).toMatchObject({
      has_more: true,
      projects: [{ project: 'bot' }],
    });
    await expect(getServer().client('none').GET('/projects')).rejects.toMatchObject({ status: 401 });
  });
});
