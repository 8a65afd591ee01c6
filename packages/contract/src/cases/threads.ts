// Cases of the threads operation: stream query (JSON Lines).
import { invalid, type OperationCase } from './case-types.ts';
import { endOf, startOf } from './calls.ts';

export const threadCases = {
  threadsStreamQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/threads/stream_query', { body: { project_id: c.projectId, filter: { thread_ids: [c.id()] }, limit: 10 }, ...extra }),
    async valid(api, c) {
      // One ended turn of a fresh thread: its call's turn_id is its own id.
      const thread_id = c.unique('thread');
      const id = c.id();
      const start = startOf(c, id);
      await api.POST('/call/start', { body: { start: { ...start.start, thread_id, turn_id: id } } });
      await api.POST('/call/end', { body: endOf(c, id) });
      // The schema types the body as a string; each line must be a ThreadSchema.
      const threads = await api.threadsStreamQuery({
        project_id: c.projectId,
        filter: { thread_ids: [thread_id] },
        sort_by: [{ field: 'last_updated', direction: 'desc' }],
        limit: 5,
      });
      for (const thread of threads) c.expectSchema('ThreadSchema', thread);
      return threads;
    },
    invalid: [
      {
        name: 'a missing project_id',
        loc: ['body', 'project_id'],
        send: (api) => api.POST('/threads/stream_query', { body: invalid({ limit: 1 }) }),
      },
      {
        name: 'a sort field Weave does not sort threads by',
        loc: ['body', 'sort_by', '0', 'field'],
        send: (api, c) =>
          api.POST('/threads/stream_query', {
            body: invalid({ project_id: c.projectId, sort_by: [{ field: 'first_turn_id', direction: 'asc' }] }),
          }),
      },
      {
        name: 'a field ThreadsQueryReq does not define',
        loc: ['body', 'query'],
        send: (api, c) => api.POST('/threads/stream_query', { body: invalid({ project_id: c.projectId, query: {} }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
