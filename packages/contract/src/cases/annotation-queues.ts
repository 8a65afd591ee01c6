// Cases of the annotation-queue operations: create, query (JSON Lines), read, update, delete.
import type { WeftClient } from '@weft/client';
import { invalid, type CaseContext, type OperationCase } from './case-types.ts';

export const createQueue = (api: WeftClient, c: CaseContext) =>
  api.POST('/annotation_queues', {
    body: { project_id: c.projectId, name: c.unique('queue'), description: 'Contract suite', scorer_refs: [] },
  });

const queueParams = (c: CaseContext, queue_id: string) => ({ path: { queue_id }, query: { project_id: c.projectId } });

/** The two ways a project_id query parameter breaks the schema. */
const badProjectQuery = (send: (api: WeftClient, c: CaseContext, query: object) => Promise<unknown>) => [
  {
    name: 'a missing project_id query parameter',
    loc: ['query', 'project_id'],
    send: (api: WeftClient, c: CaseContext) => send(api, c, {}),
  },
  {
    name: 'a project_id that is not <entity>/<project>',
    loc: ['query', 'project_id'],
    send: (api: WeftClient, c: CaseContext) => send(api, c, { project_id: 'no-slash' }),
  },
];

export const annotationQueueCases = {
  annotationQueueCreate: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/annotation_queues', { body: { project_id: c.projectId, name: c.unique('queue'), scorer_refs: [] }, ...extra }),
    invalid: [
      {
        name: 'a missing name',
        loc: ['body', 'name'],
        send: (api, c) => api.POST('/annotation_queues', { body: invalid({ project_id: c.projectId, scorer_refs: [] }) }),
      },
      {
        name: 'a string as scorer_refs',
        loc: ['body', 'scorer_refs'],
        send: (api, c) => api.POST('/annotation_queues', { body: invalid({ project_id: c.projectId, name: 'q', scorer_refs: 'ref' }) }),
      },
    ],
  },

  annotationQueuesQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/annotation_queues/query', { body: { project_id: c.projectId, name: c.unique('queue'), limit: 10 }, ...extra }),
    async valid(api, c) {
      await createQueue(api, c);
      // The schema types the body as a string; each line must be an AnnotationQueueSchema.
      const queues = await api.annotationQueuesQuery({
        project_id: c.projectId,
        sort_by: [{ field: 'created_at', direction: 'desc' }],
        limit: 5,
      });
      for (const queue of queues) c.expectSchema('AnnotationQueueSchema', queue);
      return queues;
    },
    invalid: [
      {
        name: 'a missing project_id',
        loc: ['body', 'project_id'],
        send: (api) => api.POST('/annotation_queues/query', { body: invalid({ name: 'review' }) }),
      },
      {
        name: 'a string as limit',
        loc: ['body', 'limit'],
        send: (api, c) => api.POST('/annotation_queues/query', { body: invalid({ project_id: c.projectId, limit: 'all' }) }),
      },
    ],
  },

  annotationQueueRead: {
    tenancy: 'project',
    request: (api, c, extra) => api.GET('/annotation_queues/{queue_id}', { params: queueParams(c, c.unique('queue')), ...extra }),
    async valid(api, c) {
      const { id } = await createQueue(api, c);
      return api.GET('/annotation_queues/{queue_id}', { params: queueParams(c, id) });
    },
    invalid: badProjectQuery((api, c, query) =>
      api.GET('/annotation_queues/{queue_id}', { params: invalid({ path: { queue_id: c.unique('queue') }, query }) }),
    ),
  },

  annotationQueueUpdate: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.PUT('/annotation_queues/{queue_id}', {
        params: { path: { queue_id: c.unique('queue') } },
        body: { project_id: c.projectId, name: 'Renamed' },
        ...extra,
      }),
    async valid(api, c) {
      const { id } = await createQueue(api, c);
      return api.PUT('/annotation_queues/{queue_id}', {
        params: { path: { queue_id: id } },
        body: { project_id: c.projectId, name: 'Renamed' },
      });
    },
    invalid: [
      {
        name: 'a missing project_id',
        loc: ['body', 'project_id'],
        send: (api, c) =>
          api.PUT('/annotation_queues/{queue_id}', {
            params: { path: { queue_id: c.unique('queue') } },
            body: invalid({ name: 'Renamed' }),
          }),
      },
      {
        name: 'a number as name',
        loc: ['body', 'name'],
        send: (api, c) =>
          api.PUT('/annotation_queues/{queue_id}', {
            params: { path: { queue_id: c.unique('queue') } },
            body: invalid({ project_id: c.projectId, name: 7 }),
          }),
      },
    ],
  },

  annotationQueueDelete: {
    tenancy: 'project',
    request: (api, c, extra) => api.DELETE('/annotation_queues/{queue_id}', { params: queueParams(c, c.unique('queue')), ...extra }),
    async valid(api, c) {
      const { id } = await createQueue(api, c);
      return api.DELETE('/annotation_queues/{queue_id}', { params: queueParams(c, id) });
    },
    invalid: badProjectQuery((api, c, query) =>
      api.DELETE('/annotation_queues/{queue_id}', { params: invalid({ path: { queue_id: c.unique('queue') }, query }) }),
    ),
  },
} satisfies Record<string, OperationCase>;
