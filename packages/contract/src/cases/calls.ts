// Cases of the call operations: start, end, batch, read, update, stream query (JSON Lines).
import type { CallEndReq, CallStartReq } from '@weft/types';
import { anyObject, invalid, type CaseContext, type OperationCase } from './case-types.ts';

export const startOf = (c: CaseContext, id = c.id()): CallStartReq => ({
  start: {
    project_id: c.projectId,
    id,
    trace_id: c.id(),
    op_name: 'contract_op',
    started_at: c.now(),
    attributes: anyObject({ suite: 'contract' }),
    inputs: anyObject({ question: 'How do I reset my password?' }),
  },
});

export const endOf = (c: CaseContext, id: string): CallEndReq => ({
  end: { project_id: c.projectId, id, ended_at: c.now(), output: { answer: 'Settings, then Security.' }, summary: {} },
});

export const callCases = {
  callStart: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/call/start', { body: startOf(c), ...extra }),
    invalid: [
      {
        name: 'a missing start.op_name',
        loc: ['body', 'start', 'op_name'],
        send: (api, c) => {
          const { op_name: _, ...start } = startOf(c).start;
          return api.POST('/call/start', { body: invalid({ start }) });
        },
      },
      {
        name: 'a string as start.inputs',
        loc: ['body', 'start', 'inputs'],
        send: (api, c) => api.POST('/call/start', { body: invalid({ start: { ...startOf(c).start, inputs: 'question' } }) }),
      },
    ],
  },

  callEnd: {
    tenancy: 'project',
    // An end may come before its start, so a fresh id is fine.
    request: (api, c, extra) => api.POST('/call/end', { body: endOf(c, c.id()), ...extra }),
    invalid: [
      {
        name: 'a missing end.summary',
        loc: ['body', 'end', 'summary'],
        send: (api, c) => {
          const { summary: _, ...end } = endOf(c, c.id()).end;
          return api.POST('/call/end', { body: invalid({ end }) });
        },
      },
      {
        name: 'a number as end.ended_at',
        loc: ['body', 'end', 'ended_at'],
        send: (api, c) => api.POST('/call/end', { body: invalid({ end: { ...endOf(c, c.id()).end, ended_at: 1748943688 } }) }),
      },
    ],
  },

  callUpsertBatch: {
    tenancy: 'project',
    request: (api, c, extra) => {
      const id = c.id();
      return api.POST('/call/upsert_batch', {
        body: {
          batch: [
            { mode: 'start', req: startOf(c, id) },
            { mode: 'end', req: endOf(c, id) },
          ],
        },
        ...extra,
      });
    },
    invalid: [
      { name: 'a missing batch', loc: ['body', 'batch'], send: (api) => api.POST('/call/upsert_batch', { body: invalid({}) }) },
      {
        name: 'an object as batch',
        loc: ['body', 'batch'],
        send: (api, c) => api.POST('/call/upsert_batch', { body: invalid({ batch: { mode: 'start', req: startOf(c) } }) }),
      },
    ],
  },

  callRead: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/call/read', { body: { project_id: c.projectId, id: c.id() }, ...extra }),
    async valid(api, c) {
      const { id } = await api.POST('/call/start', { body: startOf(c) });
      return api.POST('/call/read', { body: { project_id: c.projectId, id, include_costs: true, include_storage_size: true } });
    },
    invalid: [
      {
        name: 'a missing id',
        loc: ['body', 'id'],
        send: (api, c) => api.POST('/call/read', { body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'a string as include_costs',
        loc: ['body', 'include_costs'],
        send: (api, c) => api.POST('/call/read', { body: invalid({ project_id: c.projectId, id: c.id(), include_costs: 'yes' }) }),
      },
    ],
  },

  callUpdate: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/call/update', { body: { project_id: c.projectId, call_id: c.id(), display_name: 'Renamed' }, ...extra }),
    async valid(api, c) {
      const { id } = await api.POST('/call/start', { body: startOf(c) });
      return api.POST('/call/update', { body: { project_id: c.projectId, call_id: id, display_name: 'Renamed' } });
    },
    invalid: [
      {
        name: 'a missing display_name',
        loc: ['body', 'display_name'],
        send: (api, c) => api.POST('/call/update', { body: invalid({ project_id: c.projectId, call_id: c.id() }) }),
      },
      {
        name: 'a number as call_id',
        loc: ['body', 'call_id'],
        send: (api, c) => api.POST('/call/update', { body: invalid({ project_id: c.projectId, call_id: 42, display_name: 'x' }) }),
      },
    ],
  },

  callsQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/calls/query', {
        body: { project_id: c.projectId, filter: { call_ids: [c.id()] }, columns: ['inputs'], limit: 10 },
        ...extra,
      }),
    invalid: [
      {
        name: 'a field Weave does not define',
        loc: ['body', 'only_roots'],
        send: (api, c) => api.POST('/calls/query', { body: invalid({ project_id: c.projectId, only_roots: true }) }),
      },
      {
        name: "a newer SDK's field set to what Weft does not offer",
        loc: ['body', 'latest_only'],
        send: (api, c) => api.POST('/calls/query', { body: invalid({ project_id: c.projectId, latest_only: true }) }),
      },
    ],
  },

  callsDelete: {
    tenancy: 'project',
    // Unknown ids are skipped (num_deleted 0), as Weave does: there is no 404 to check.
    request: (api, c, extra) =>
      api.POST('/calls/delete', { body: { project_id: c.projectId, call_ids: [c.id()], wb_user_id: null }, ...extra }),
    async valid(api, c) {
      const { id } = await api.POST('/call/start', { body: startOf(c) });
      return api.POST('/calls/delete', { body: { project_id: c.projectId, call_ids: [id] } });
    },
    invalid: [
      {
        name: 'an empty call_ids',
        loc: ['body', 'call_ids'],
        send: (api, c) => api.POST('/calls/delete', { body: { project_id: c.projectId, call_ids: [] } }),
      },
      {
        name: 'a field Weft does not honour',
        loc: ['body', 'delete_feedback'],
        send: (api, c) => api.POST('/calls/delete', { body: invalid({ project_id: c.projectId, call_ids: ['x'], delete_feedback: true }) }),
      },
    ],
  },

  callsStreamQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/calls/stream_query', { body: { project_id: c.projectId, filter: { call_ids: [c.id()] }, limit: 10 }, ...extra }),
    async valid(api, c) {
      const { id } = await api.POST('/call/start', { body: startOf(c) });
      // The schema types the body as a string; each line must be a CallSchema.
      const calls = await api.callsStreamQuery({ project_id: c.projectId, filter: { call_ids: [id] }, include_costs: true });
      for (const call of calls) c.expectSchema('CallSchema', call);
      return calls;
    },
    invalid: [
      {
        name: 'a missing project_id',
        loc: ['body', 'project_id'],
        send: (api) => api.POST('/calls/stream_query', { body: invalid({ limit: 1 }) }),
      },
      {
        name: 'a string as filter.call_ids',
        loc: ['body', 'filter', 'call_ids'],
        send: (api, c) => api.POST('/calls/stream_query', { body: invalid({ project_id: c.projectId, filter: { call_ids: 'c1' } }) }),
      },
    ],
  },

  callsQueryStats: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/calls/query_stats', { body: { project_id: c.projectId, filter: { call_ids: [c.id()] } }, ...extra }),
    async valid(api, c) {
      const { id } = await api.POST('/call/start', { body: startOf(c) });
      return api.POST('/calls/query_stats', { body: { project_id: c.projectId, filter: { call_ids: [id] }, limit: 10 } });
    },
    invalid: [
      {
        name: 'a query that is not {$expr}',
        loc: ['body', 'query'],
        send: (api, c) => api.POST('/calls/query_stats', { body: invalid({ project_id: c.projectId, query: 'status = error' }) }),
      },
      {
        name: 'include_total_storage_size true',
        loc: ['body', 'include_total_storage_size'],
        send: (api, c) => api.POST('/calls/query_stats', { body: invalid({ project_id: c.projectId, include_total_storage_size: true }) }),
      },
      {
        name: 'a field Weft does not know',
        loc: ['body', 'columns'],
        send: (api, c) => api.POST('/calls/query_stats', { body: invalid({ project_id: c.projectId, columns: ['id'] }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
