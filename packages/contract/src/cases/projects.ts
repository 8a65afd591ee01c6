// Cases of GET /projects (Weft Studio's list of projects).
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
} satisfies Record<string, OperationCase>;
