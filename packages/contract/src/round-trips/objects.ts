// Server only: objects keep their values, versions and digests across operations.
import { describe, expect, test } from 'vitest';
import { expectStatus, type SuiteContext } from '../suite-context.ts';

export function defineObjectRoundTrip(s: SuiteContext): void {
  describe('objects', () => {
    test('create, read back, version, query, delete', async () => {
      const api = s.client({ scheme: 'basic', key: 'valid' });
      const c = s.context();
      const project_id = c.projectId;
      const object_id = c.unique('obj');
      const first = { system: 'You are a concise support agent.', temperature: 0.2 };
      const second = { ...first, temperature: 0.5 };
      const create = (val: object) => api.POST('/obj/create', { body: { obj: { project_id, object_id, val } } });
      const read = (digest: string) => api.POST('/obj/read', { body: { project_id, object_id, digest } });

      const v0 = await create(first);
      expect(v0.object_id).toBe(object_id);
      // The same value again is the same version: same digest, nothing new.
      expect((await create(first)).digest).toBe(v0.digest);
      expect((await read('latest')).obj).toMatchObject({
        project_id,
        object_id,
        digest: v0.digest,
        version_index: 0,
        is_latest: 1,
        kind: 'object',
        val: first,
      });

      const v1 = await create(second);
      expect(v1.digest).not.toBe(v0.digest);
      expect((await read('latest')).obj).toMatchObject({ digest: v1.digest, version_index: 1, is_latest: 1, val: second });
      expect((await read('v0')).obj).toMatchObject({ digest: v0.digest, is_latest: 0, val: first });
      expect((await read(v1.digest)).obj.version_index).toBe(1);

      const { objs } = await api.POST('/objs/query', { body: { project_id, filter: { object_ids: [object_id] } } });
      expect(objs.map((o) => [o.digest, o.version_index, o.is_latest])).toEqual([
        [v0.digest, 0, 0],
        [v1.digest, 1, 1],
      ]);
      const latestOnly = await api.POST('/objs/query', { body: { project_id, filter: { object_ids: [object_id], latest_only: true } } });
      expect(latestOnly.objs.map((o) => o.digest)).toEqual([v1.digest]);

      // Deleting the latest version moves is_latest to the newest survivor.
      const deleted = await api.POST('/obj/delete', { body: { project_id, object_id, digests: ['latest'] } });
      expect(deleted.num_deleted).toBe(1);
      expect(deleted.deleted_versions?.map((v) => v.digest)).toEqual([v1.digest]);
      expect((await read('latest')).obj).toMatchObject({ digest: v0.digest, version_index: 0, is_latest: 1 });

      // Without digests every live version goes; then the object is a 404.
      expect((await api.POST('/obj/delete', { body: { project_id, object_id } })).num_deleted).toBe(1);
      await expectStatus(read('latest'), 404);
      expect((await api.POST('/objs/query', { body: { project_id, filter: { object_ids: [object_id] } } })).objs).toEqual([]);
    });
  });
}
