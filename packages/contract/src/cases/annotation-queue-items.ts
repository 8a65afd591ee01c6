// Cases of the queue-item operations: add calls, query items, progress, remove items, stats.
import type { WeftClient } from '@weft/client';
import { startOf } from './calls.ts';
import { createQueue } from './annotation-queues.ts';
import { invalid, type CaseContext, type OperationCase } from './case-types.ts';

const inQueue = (queue_id: string) => ({ params: { path: { queue_id } } });

/** A queue holding one new call, and the item's id. */
async function queueWithItem(api: WeftClient, c: CaseContext) {
  const { id: queue_id } = await createQueue(api, c);
  const call = startOf(c);
  await api.POST('/call/start', { body: call });
  await api.POST('/annotation_queues/{queue_id}/items', {
    ...inQueue(queue_id),
    body: { project_id: c.projectId, call_ids: [call.start.id!], display_fields: ['inputs'] },
  });
  const { items } = await api.POST('/annotation_queues/{queue_id}/items/query', {
    ...inQueue(queue_id),
    body: { project_id: c.projectId },
  });
  return { queue_id, item_id: items[0]!.id };
}

export const annotationQueueItemCases = {
  annotationQueueAddCalls: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/annotation_queues/{queue_id}/items', {
        ...inQueue(c.unique('queue')),
        body: { project_id: c.projectId, call_ids: [c.id()], display_fields: [] },
        ...extra,
      }),
    async valid(api, c) {
      const { id } = await createQueue(api, c);
      const call = startOf(c);
      await api.POST('/call/start', { body: call });
      return api.POST('/annotation_queues/{queue_id}/items', {
        ...inQueue(id),
        body: { project_id: c.projectId, call_ids: [call.start.id!] },
      });
    },
    invalid: [
      {
        name: 'a missing call_ids',
        loc: ['body', 'call_ids'],
        send: (api, c) => api.POST('/annotation_queues/{queue_id}/items', { ...inQueue('q'), body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'a string as display_fields',
        loc: ['body', 'display_fields'],
        send: (api, c) =>
          api.POST('/annotation_queues/{queue_id}/items', {
            ...inQueue('q'),
            body: invalid({ project_id: c.projectId, call_ids: [], display_fields: 'inputs' }),
          }),
      },
    ],
  },

  annotationQueueItemsQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/annotation_queues/{queue_id}/items/query', { ...inQueue(c.unique('queue')), body: { project_id: c.projectId }, ...extra }),
    async valid(api, c) {
      const { queue_id } = await queueWithItem(api, c);
      const res = await api.POST('/annotation_queues/{queue_id}/items/query', {
        ...inQueue(queue_id),
        body: { project_id: c.projectId, filter: { annotation_states: ['unstarted'] }, include_position: true, limit: 5 },
      });
      for (const item of res.items) c.expectSchema('AnnotationQueueItemSchema', item);
      return res;
    },
    invalid: [
      {
        name: 'an unknown annotation state',
        loc: ['body', 'filter', 'annotation_states', '0'],
        send: (api, c) =>
          api.POST('/annotation_queues/{queue_id}/items/query', {
            ...inQueue('q'),
            body: invalid({ project_id: c.projectId, filter: { annotation_states: ['done'] } }),
          }),
      },
      {
        name: 'an unsortable field',
        loc: ['body', 'sort_by', '0', 'field'],
        send: (api, c) =>
          api.POST('/annotation_queues/{queue_id}/items/query', {
            ...inQueue('q'),
            body: invalid({ project_id: c.projectId, sort_by: [{ field: 'call_id', direction: 'asc' }] }),
          }),
      },
    ],
  },

  annotationQueueItemProgressUpdate: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/annotation_queues/{queue_id}/items/{item_id}/progress', {
        params: { path: { queue_id: c.unique('queue'), item_id: c.id() } },
        body: { project_id: c.projectId, annotation_state: 'completed' },
        ...extra,
      }),
    async valid(api, c) {
      const { queue_id, item_id } = await queueWithItem(api, c);
      return api.POST('/annotation_queues/{queue_id}/items/{item_id}/progress', {
        params: { path: { queue_id, item_id } },
        body: { project_id: c.projectId, annotation_state: 'in_progress' },
      });
    },
    invalid: [
      {
        name: 'a missing annotation_state',
        loc: ['body', 'annotation_state'],
        send: (api, c) =>
          api.POST('/annotation_queues/{queue_id}/items/{item_id}/progress', {
            params: { path: { queue_id: 'q', item_id: 'i' } },
            body: invalid({ project_id: c.projectId }),
          }),
      },
    ],
  },

  annotationQueueItemsDelete: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/annotation_queues/{queue_id}/items/delete', {
        ...inQueue(c.unique('queue')),
        body: { project_id: c.projectId, item_ids: [c.id()] },
        ...extra,
      }),
    async valid(api, c) {
      const { queue_id, item_id } = await queueWithItem(api, c);
      return api.POST('/annotation_queues/{queue_id}/items/delete', {
        ...inQueue(queue_id),
        body: { project_id: c.projectId, item_ids: [item_id] },
      });
    },
    invalid: [
      {
        name: 'an empty item_ids',
        loc: ['body', 'item_ids'],
        send: (api, c) =>
          api.POST('/annotation_queues/{queue_id}/items/delete', {
            ...inQueue('q'),
            body: invalid({ project_id: c.projectId, item_ids: [] }),
          }),
      },
    ],
  },

  annotationQueuesStats: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/annotation_queues/stats', { body: { project_id: c.projectId, queue_ids: [c.unique('queue')] }, ...extra }),
    async valid(api, c) {
      const { queue_id } = await queueWithItem(api, c);
      return api.POST('/annotation_queues/stats', { body: { project_id: c.projectId, queue_ids: [queue_id] } });
    },
    invalid: [
      {
        name: 'a missing queue_ids',
        loc: ['body', 'queue_ids'],
        send: (api, c) => api.POST('/annotation_queues/stats', { body: invalid({ project_id: c.projectId }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
