// Cases of the cost operations (a project's prices of models).
import type { CostCreateReq } from '@weft/types';
import { anyObject, invalid, type CaseContext, type OperationCase } from './case-types.ts';

const priceOf = (c: CaseContext, model = c.unique('model')): CostCreateReq => ({
  project_id: c.projectId,
  costs: { [model]: { prompt_token_cost: 0.0000002, completion_token_cost: 0.0000006, effective_date: '2025-01-01T00:00:00Z' } },
});
const byId = (id: string) => ({ $expr: anyObject({ $in: [{ $getField: 'id' }, [{ $literal: id }]] }) });

export const costCases = {
  costCreate: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/cost/create', { body: priceOf(c), ...extra }),
    invalid: [
      {
        name: 'a price without its completion_token_cost',
        loc: ['body', 'costs', 'acme-model', 'completion_token_cost'],
        send: (api, c) =>
          api.POST('/cost/create', { body: invalid({ project_id: c.projectId, costs: { 'acme-model': { prompt_token_cost: 1 } } }) }),
      },
      {
        name: 'a negative price',
        loc: ['body', 'costs', 'acme-model', 'prompt_token_cost'],
        send: (api, c) =>
          api.POST('/cost/create', {
            body: { project_id: c.projectId, costs: { 'acme-model': { prompt_token_cost: -1, completion_token_cost: 1 } } },
          }),
      },
      {
        name: 'a field Weave does not define',
        loc: ['body', 'costs', 'acme-model', 'image_cost'],
        send: (api, c) =>
          api.POST('/cost/create', {
            body: invalid({
              project_id: c.projectId,
              costs: { 'acme-model': { prompt_token_cost: 1, completion_token_cost: 1, image_cost: 1 } },
            }),
          }),
      },
    ],
  },

  costQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/cost/query', {
        body: {
          project_id: c.projectId,
          query: { $expr: anyObject({ $gte: [{ $getField: 'prompt_token_cost' }, { $literal: 0 }] }) },
          sort_by: [{ field: 'effective_date', direction: 'desc' }],
          limit: 10,
        },
        ...extra,
      }),
    async valid(api, c) {
      const model = c.unique('model');
      await api.POST('/cost/create', { body: priceOf(c, model) });
      const res = await api.POST('/cost/query', {
        body: { project_id: c.projectId, query: { $expr: anyObject({ $eq: [{ $getField: 'llm_id' }, { $literal: model }] }) } },
      });
      c.expectSchema('CostQueryRes', res);
      if (c.kind === 'server' && res.results[0]?.prompt_token_cost !== 0.0000002) throw new Error(`unexpected ${JSON.stringify(res)}`);
      return res;
    },
    invalid: [
      {
        name: 'a sort by a field prices do not have',
        loc: ['body', 'sort_by', '0', 'field'],
        send: (api, c) =>
          api.POST('/cost/query', { body: { project_id: c.projectId, sort_by: [{ field: invalid('payload'), direction: 'asc' }] } }),
      },
      {
        name: 'a field Weave does not define',
        loc: ['body', 'include_deleted'],
        send: (api, c) => api.POST('/cost/query', { body: invalid({ project_id: c.projectId, include_deleted: true }) }),
      },
    ],
  },

  costPurge: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/cost/purge', { body: { project_id: c.projectId, query: byId(c.id()) }, ...extra }),
    async valid(api, c) {
      const { ids } = await api.POST('/cost/create', { body: priceOf(c) });
      return api.POST('/cost/purge', { body: { project_id: c.projectId, query: byId(ids[0]![0]!) } });
    },
    invalid: [
      {
        name: 'a missing query',
        loc: ['body', 'query'],
        send: (api, c) => api.POST('/cost/purge', { body: invalid({ project_id: c.projectId }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
