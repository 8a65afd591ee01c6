// Cases of GET /projects (Weft Studio's list of projects) and of a project's retention (TTL) settings.
import { invalid, type OperationCase } from './case-types.ts';

export const projectCases = {
  projectsList: {
    // It names no project: it answers only the key's own entities (apps/server/test/projects.test.ts).
    tenancy: { untested: 'the operation names no project; what it lists is filtered by the key (apps/server/test/projects.test.ts)' },
    request: (api, _c, extra) => api.GET('/projects', { ...extra }),
    invalid: [
      {
        name: 'a limit of 0',
        loc: ['query', 'limit'],
        send: (api) => api.GET('/projects', { params: { query: { limit: invalid(0) } } }),
      },
    ],
  },

  projectTtlSettingsRead: {
    tenancy: 'project',
    // A project never given a retention has none (null), as in Weave.
    request: (api, c, extra) => api.POST('/project/ttl_settings/read', { body: { project_id: c.projectId }, ...extra }),
    invalid: [
      {
        name: 'a missing project_id',
        loc: ['body', 'project_id'],
        send: (api) => api.POST('/project/ttl_settings/read', { body: invalid({}) }),
      },
      {
        name: 'a field Weft does not honour',
        loc: ['body', 'include_history'],
        send: (api, c) => api.POST('/project/ttl_settings/read', { body: invalid({ project_id: c.projectId, include_history: true }) }),
      },
    ],
  },

  projectTtlSettingsUpdate: {
    tenancy: 'project',
    // Clearing: leaves the project as the other cases expect it (no retention).
    request: (api, c, extra) =>
      api.POST('/project/ttl_settings/update', { body: { project_id: c.projectId, retention_days: null, wb_user_id: null }, ...extra }),
    async valid(api, c) {
      await api.POST('/project/ttl_settings/update', { body: { project_id: c.projectId, retention_days: 7 } });
      return api.POST('/project/ttl_settings/update', { body: { project_id: c.projectId, retention_days: null } });
    },
    invalid: [
      {
        name: 'a retention of 0 days',
        loc: ['body', 'retention_days'],
        send: (api, c) => api.POST('/project/ttl_settings/update', { body: { project_id: c.projectId, retention_days: invalid(0) } }),
      },
      {
        name: 'a negative retention',
        loc: ['body', 'retention_days'],
        send: (api, c) => api.POST('/project/ttl_settings/update', { body: { project_id: c.projectId, retention_days: invalid(-3) } }),
      },
      {
        name: 'a retention that is not whole days',
        loc: ['body', 'retention_days'],
        send: (api, c) => api.POST('/project/ttl_settings/update', { body: { project_id: c.projectId, retention_days: invalid(1.5) } }),
      },
      {
        name: 'a field Weft does not honour',
        loc: ['body', 'retention_hours'],
        send: (api, c) => api.POST('/project/ttl_settings/update', { body: invalid({ project_id: c.projectId, retention_hours: 5 }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
