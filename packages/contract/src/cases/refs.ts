// Cases of POST /refs/read_batch.
import { invalid, type OperationCase } from './case-types.ts';

export const refCases = {
  refsReadBatch: {
    tenancy: 'project',
    // A version that does not exist: 404 on the server.
    request: (api, c, extra) =>
      api.POST('/refs/read_batch', {
        body: { refs: [`weave:///${c.projectId}/object/${c.unique('nothing')}:${c.unique('v')}`] },
        ...extra,
      }),
    async valid(api, c) {
      const object_id = c.unique('prompt');
      const { digest } = await api.POST('/obj/create', {
        body: { obj: { project_id: c.projectId, object_id, val: { system: 'Be brief.' } } },
      });
      return api.POST('/refs/read_batch', { body: { refs: [`weave:///${c.projectId}/object/${object_id}:${digest}/key/system`] } });
    },
    invalid: [
      { name: 'no refs', loc: ['body', 'refs'], send: (api) => api.POST('/refs/read_batch', { body: { refs: [] } }) },
      {
        name: 'a number as a ref',
        loc: ['body', 'refs', '0'],
        send: (api) => api.POST('/refs/read_batch', { body: { refs: [invalid(42)] } }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
