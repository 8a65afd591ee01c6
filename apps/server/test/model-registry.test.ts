// A project's models listed and paged, and a model deleted with everything under it: its
// checkpoints, its logs with their groups and trajectories (in bounded steps, all or nothing).
import { expect, it } from 'vitest';
import { openDatabase } from '@weft/store';
import { bearerCall } from './bearer-call.ts';
import { describeEachDatabase } from './test-server.ts';

describeEachDatabase('model registry', (getServer) => {
  const call = bearerCall(getServer);
  const register = async (project: string, name: string) =>
    (await call('POST', '/v1/preview/models', { entity: 'acme', project, name, base_model: 'b', return_existing: true })).body.id as string;

  it("lists a project's models oldest first, paged with after while has_more", async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const ids: string[] = [];
    for (const name of names) ids.push(await register('listed', name));
    await register('elsewhere', 'z');
    const seen: string[] = [];
    let after = '';
    for (let pages = 0; pages < 10; pages++) {
      const r = await call('GET', `/v1/preview/models?project=acme/listed&limit=2${after ? `&after=${after}` : ''}`);
      expect(r, JSON.stringify(r.body)).toMatchObject({ status: 200 });
      const page = r.body as { data: Array<{ id: string; name: string }>; has_more: boolean; last_id: string | null };
      seen.push(...page.data.map((m) => m.name));
      if (!page.has_more) break;
      after = page.last_id!;
    }
    expect(seen).toEqual(names);
    expect((await call('GET', '/v1/preview/models?project=acme/nothing-here')).body).toEqual({
      object: 'list',
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });
    expect((await call('GET', '/v1/preview/models?project=globex/listed')).status).toBe(403);
    expect((await call('GET', `/v1/preview/models?project=acme/listed&after=${ids[0]}-gone`)).status).toBe(404);
  });

  it('deletes a model with its checkpoints and logs, and nothing of another model', async () => {
    const doomed = await register('deleting', 'doomed');
    const kept = await register('deleting', 'kept');
    const groups = Array.from({ length: 30 }, (_, g) => ({
      trajectories: Array.from({ length: 300 }, (_, t) => ({ reward: (g + t) % 2 })),
    }));
    for (const id of [doomed, kept]) {
      expect((await call('POST', `/v1/preview/models/${id}/log`, { split: 'train', trajectory_groups: groups })).status).toBe(200);
      expect((await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 1 })).status).toBe(200);
      expect((await call('POST', `/v1/preview/models/${id}/log`, { split: 'val', trajectory_groups: groups.slice(0, 2) })).status).toBe(
        200,
      );
    }
    expect((await call('DELETE', `/v1/preview/models/${doomed}`, undefined, getServer().bobKey)).status).toBe(403);

    const deleted = await call('DELETE', `/v1/preview/models/${doomed}`);
    expect(deleted).toEqual({ status: 200, body: { model_id: doomed, deleted_checkpoints: 1, deleted_run: false, deleted_logs: 2 } });
    expect((await call('GET', `/v1/preview/models/${doomed}`)).status).toBe(404);
    expect((await call('GET', `/v1/preview/models/${doomed}/checkpoints`)).status).toBe(404);
    expect((await call('DELETE', `/v1/preview/models/${doomed}`)).status).toBe(404);
    // The other model keeps everything; registering the name again makes a new model.
    expect((await call('GET', `/v1/preview/models/${kept}/checkpoints`)).body).toMatchObject({ data: [{ step: 1 }] });
    const again = await register('deleting', 'doomed');
    expect(again).not.toBe(doomed);

    const db = await openDatabase(getServer().databaseUrl);
    try {
      const count = async (table: 'trajectories' | 'trajectory_groups' | 'trajectory_logs', column: 'log_id' | 'id') =>
        (await db.kysely.selectFrom(table).select(column).where('project_id', '=', 'acme/deleting').execute()).length;
      // Only the kept model's two logs remain: 9,000 + 600 trajectories in 30 + 2 groups.
      expect(await count('trajectory_logs', 'id')).toBe(2);
      expect(await count('trajectory_groups', 'log_id')).toBe(32);
      expect(await count('trajectories', 'log_id')).toBe(9600);
    } finally {
      await db.close();
    }
  });
});
