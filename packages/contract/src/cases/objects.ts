// Cases of the object operations: create, read, delete, query.
import type { WeftClient } from '@weft/client';
import { invalid, type CaseContext, type OperationCase } from './case-types.ts';

const createObject = (api: WeftClient, c: CaseContext, object_id = c.unique('obj')) =>
  api.POST('/obj/create', { body: { obj: { project_id: c.projectId, object_id, val: { prompt: 'Be brief.', temperature: 0.2 } } } });

export const objectCases = {
  objCreate: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/obj/create', {
        body: { obj: { project_id: c.projectId, object_id: c.unique('obj'), val: { prompt: 'Be brief.' } } },
        ...extra,
      }),
    invalid: [
      {
        name: 'a missing obj.val',
        loc: ['body', 'obj', 'val'],
        send: (api, c) => api.POST('/obj/create', { body: invalid({ obj: { project_id: c.projectId, object_id: c.unique('obj') } }) }),
      },
      {
        name: 'a number as obj.object_id',
        loc: ['body', 'obj', 'object_id'],
        send: (api, c) => api.POST('/obj/create', { body: invalid({ obj: { project_id: c.projectId, object_id: 42, val: {} } }) }),
      },
    ],
  },

  objRead: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/obj/read', { body: { project_id: c.projectId, object_id: c.unique('obj'), digest: 'latest' }, ...extra }),
    async valid(api, c) {
      const { object_id, digest } = await createObject(api, c);
      return api.POST('/obj/read', { body: { project_id: c.projectId, object_id, digest } });
    },
    invalid: [
      {
        name: 'a missing digest',
        loc: ['body', 'digest'],
        send: (api, c) => api.POST('/obj/read', { body: invalid({ project_id: c.projectId, object_id: 'x' }) }),
      },
      {
        name: 'a number as object_id',
        loc: ['body', 'object_id'],
        send: (api, c) => api.POST('/obj/read', { body: invalid({ project_id: c.projectId, object_id: 42, digest: 'latest' }) }),
      },
    ],
  },

  objDelete: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/obj/delete', { body: { project_id: c.projectId, object_id: c.unique('obj'), digests: ['latest'] }, ...extra }),
    async valid(api, c) {
      const { object_id, digest } = await createObject(api, c);
      return api.POST('/obj/delete', { body: { project_id: c.projectId, object_id, digests: [digest] } });
    },
    invalid: [
      {
        name: 'a missing object_id',
        loc: ['body', 'object_id'],
        send: (api, c) => api.POST('/obj/delete', { body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'a string as digests',
        loc: ['body', 'digests'],
        send: (api, c) => api.POST('/obj/delete', { body: invalid({ project_id: c.projectId, object_id: 'x', digests: 'latest' }) }),
      },
    ],
  },

  objsQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/objs/query', {
        body: { project_id: c.projectId, filter: { object_ids: [c.unique('obj')], latest_only: true }, limit: 10 },
        ...extra,
      }),
    invalid: [
      {
        name: 'a missing project_id',
        loc: ['body', 'project_id'],
        send: (api) => api.POST('/objs/query', { body: invalid({ limit: 10 }) }),
      },
      {
        name: 'a string as limit',
        loc: ['body', 'limit'],
        send: (api, c) => api.POST('/objs/query', { body: invalid({ project_id: c.projectId, limit: 'ten' }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
