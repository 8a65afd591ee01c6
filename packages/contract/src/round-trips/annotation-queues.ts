// Server only: a queue is created, listed, partly updated, and soft-deleted.
import { describe, expect, test } from 'vitest';
import { expectStatus, type SuiteContext } from '../suite-context.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function defineAnnotationQueueRoundTrip(s: SuiteContext): void {
  describe('annotation queues', () => {
    test('create, read, update only the supplied fields, query, delete', async () => {
      const api = s.client({ scheme: 'basic', key: 'valid' });
      const c = s.context();
      const project_id = c.projectId;
      const name = c.unique('review');
      const scorer_refs = [`weave:///${project_id}/scorer/helpfulness:geYJQqnHhVssZOL4AysdAqn1R2jn7svzAGCiYR3kEJU`];
      const params = (queue_id: string) => ({ path: { queue_id }, query: { project_id } });

      const { id } = await api.POST('/annotation_queues', { body: { project_id, name, description: 'Rate answers', scorer_refs } });
      const { queue } = await api.GET('/annotation_queues/{queue_id}', { params: params(id) });
      expect(queue).toMatchObject({ id, project_id, name, description: 'Rate answers', scorer_refs });
      expect(queue.deleted_at).toBeUndefined();

      await sleep(5); // so that a moved updated_at is visible at millisecond precision
      const renamed = await api.PUT('/annotation_queues/{queue_id}', {
        params: { path: { queue_id: id } },
        body: { project_id, name: `${name} (June)`, description: null },
      });
      // Only name was supplied (and not null): the rest stays.
      expect(renamed.queue).toMatchObject({
        id,
        name: `${name} (June)`,
        description: 'Rate answers',
        scorer_refs,
        created_at: queue.created_at,
      });
      expect(Date.parse(renamed.queue.updated_at)).toBeGreaterThan(Date.parse(queue.updated_at));
      expect((await api.GET('/annotation_queues/{queue_id}', { params: params(id) })).queue).toEqual(renamed.queue);

      const listed = await api.annotationQueuesQuery({ project_id, name: name.toUpperCase() }); // case-insensitive substring
      expect(listed.map((q) => q.id)).toEqual([id]);

      const deleted = await api.DELETE('/annotation_queues/{queue_id}', { params: params(id) });
      expect(deleted.queue.id).toBe(id);
      // A real time, not null: the queue is deleted now.
      expect(Date.parse(deleted.queue.deleted_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
      await expectStatus(api.GET('/annotation_queues/{queue_id}', { params: params(id) }), 404);
      await expectStatus(
        api.PUT('/annotation_queues/{queue_id}', { params: { path: { queue_id: id } }, body: { project_id, name: 'x' } }),
        404,
      );
      await expectStatus(api.DELETE('/annotation_queues/{queue_id}', { params: params(id) }), 404);
      expect(await api.annotationQueuesQuery({ project_id, name })).toEqual([]);
    });
  });
}
