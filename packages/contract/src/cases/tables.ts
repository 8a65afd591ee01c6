// Cases of the table operations: create, query.
import { anyObject, invalid, type OperationCase } from './case-types.ts';

export const tableCases = {
  tableCreate: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/table/create', {
        body: {
          table: {
            project_id: c.projectId,
            rows: [anyObject({ question: c.unique('q'), difficulty: 1 }), anyObject({ question: 'Why?', difficulty: 2 })],
          },
        },
        ...extra,
      }),
    invalid: [
      {
        name: 'a missing table.rows',
        loc: ['body', 'table', 'rows'],
        send: (api, c) => api.POST('/table/create', { body: invalid({ table: { project_id: c.projectId } }) }),
      },
      {
        name: 'a string as table.rows',
        loc: ['body', 'table', 'rows'],
        send: (api, c) => api.POST('/table/create', { body: invalid({ table: { project_id: c.projectId, rows: 'rows' } }) }),
      },
    ],
  },

  tableQuery: {
    tenancy: 'project',
    // An unknown digest is no error: the answer has no rows.
    request: (api, c, extra) =>
      api.POST('/table/query', { body: { project_id: c.projectId, digest: c.unique('digest'), limit: 10 }, ...extra }),
    async valid(api, c) {
      const { digest } = await api.POST('/table/create', {
        body: { table: { project_id: c.projectId, rows: [anyObject({ n: 1 }), anyObject({ n: 2 })] } },
      });
      return api.POST('/table/query', { body: { project_id: c.projectId, digest } });
    },
    invalid: [
      {
        name: 'a missing digest',
        loc: ['body', 'digest'],
        send: (api, c) => api.POST('/table/query', { body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'a string as offset',
        loc: ['body', 'offset'],
        send: (api, c) => api.POST('/table/query', { body: invalid({ project_id: c.projectId, digest: 'd', offset: 'first' }) }),
      },
    ],
  },

  tableQueryStats: {
    tenancy: 'project',
    // An unknown digest counts 0 rows.
    request: (api, c, extra) => api.POST('/table/query_stats', { body: { project_id: c.projectId, digest: c.unique('digest') }, ...extra }),
    async valid(api, c) {
      const { digest } = await api.POST('/table/create', {
        body: { table: { project_id: c.projectId, rows: [anyObject({ n: 1 }), anyObject({ n: 1 }), anyObject({ n: 2 })] } },
      });
      return api.POST('/table/query_stats', { body: { project_id: c.projectId, digest } });
    },
    invalid: [
      {
        name: 'a missing digest',
        loc: ['body', 'digest'],
        send: (api, c) => api.POST('/table/query_stats', { body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'a field Weft does not honour',
        loc: ['body', 'include_storage_size'],
        send: (api, c) =>
          api.POST('/table/query_stats', { body: invalid({ project_id: c.projectId, digest: 'd', include_storage_size: true }) }),
      },
    ],
  },

  tableQueryStatsBatch: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/table/query_stats_batch', { body: { project_id: c.projectId, digests: [c.unique('digest')] }, ...extra }),
    async valid(api, c) {
      const { digest } = await api.POST('/table/create', { body: { table: { project_id: c.projectId, rows: [anyObject({ n: 1 })] } } });
      return api.POST('/table/query_stats_batch', { body: { project_id: c.projectId, digests: [digest, c.unique('digest')] } });
    },
    invalid: [
      {
        name: 'include_storage_size true, which Weft does not count yet',
        loc: ['body', 'include_storage_size'],
        send: (api, c) => api.POST('/table/query_stats_batch', { body: invalid({ project_id: c.projectId, include_storage_size: true }) }),
      },
    ],
  },

  tableUpdate: {
    tenancy: 'project',
    // A base table that does not exist: 404 on the server.
    request: (api, c, extra) =>
      api.POST('/table/update', {
        body: { project_id: c.projectId, base_digest: c.unique('digest'), updates: [{ pop: { index: 0 } }] },
        ...extra,
      }),
    async valid(api, c) {
      const { digest } = await api.POST('/table/create', { body: { table: { project_id: c.projectId, rows: [anyObject({ a: 1 })] } } });
      return api.POST('/table/update', {
        body: { project_id: c.projectId, base_digest: digest, updates: [{ append: { row: anyObject({ a: 2 }) } }, { pop: { index: 0 } }] },
      });
    },
    invalid: [
      {
        name: 'an update of no known kind',
        loc: ['body', 'updates', '0'],
        send: (api, c) =>
          api.POST('/table/update', { body: invalid({ project_id: c.projectId, base_digest: 'd', updates: [{ replace: {} }] }) }),
      },
      {
        name: 'a negative index',
        loc: ['body', 'updates', '0'],
        send: (api, c) =>
          api.POST('/table/update', { body: invalid({ project_id: c.projectId, base_digest: 'd', updates: [{ pop: { index: -1 } }] }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
