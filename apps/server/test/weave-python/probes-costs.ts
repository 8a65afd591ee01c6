// Field probes of a project's prices (see field-probe.ts).
import { answerOf, read, type Ctx, type Probe } from './field-probe.ts';
import type { PythonSdk } from './wire.ts';

const allPrices = async (sdk: PythonSdk, ctx: Ctx) => read(sdk, '/cost/query', { project_id: ctx.P });
const price = (prompt: number) => ({ prompt_token_cost: prompt, completion_token_cost: 0.2, effective_date: '2025-01-01T00:00:00Z' });

async function twoPrices(sdk: PythonSdk, P: string): Promise<Record<string, string>> {
  const made = (await read(sdk, '/cost/create', { project_id: P, costs: { 'm-a': price(0.1), 'm-b': price(0.3) } })) as {
    ids: [string, string][];
  };
  return { first: made.ids[0]![0] };
}

export const COST_PROBES: Probe[] = [
  {
    path: '/cost/create',
    model: 'CostCreateReq',
    body: ({ P }) => ({ project_id: P, costs: { 'm-a': price(0.1) } }),
    observe: allPrices,
    fields: {
      project_id: { required: true },
      costs: { required: true },
      wb_user_id: { unchanged: 'someone-else', why: 'the server records the authenticated user as created_by' },
    },
  },
  {
    path: '/cost/create',
    model: 'CostCreateInput',
    at: ['costs', 'm-a'],
    body: ({ P }) => ({
      project_id: P,
      costs: { 'm-a': { prompt_token_cost: 0.1, completion_token_cost: 0.2, effective_date: '2025-01-01T00:00:00Z' } },
    }),
    observe: async (sdk, ctx) =>
      read(sdk, '/cost/query', {
        project_id: ctx.P,
        fields: [
          'llm_id',
          'prompt_token_cost',
          'completion_token_cost',
          'cache_read_input_token_cost',
          'cache_creation_input_token_cost',
          'prompt_token_cost_unit',
          'completion_token_cost_unit',
          'effective_date',
          'provider_id',
        ],
      }),
    fields: {
      prompt_token_cost: { required: true },
      completion_token_cost: { required: true },
      prompt_token_cost_unit: { honoured: 'EUR' },
      completion_token_cost_unit: { honoured: 'EUR' },
      effective_date: { honoured: '2025-06-01T00:00:00Z' },
      provider_id: { honoured: 'openai' },
      cache_read_input_token_cost: { honoured: 0.01 },
      cache_creation_input_token_cost: { honoured: 0.02 },
    },
  },
  {
    path: '/cost/query',
    model: 'CostQueryReq',
    setup: twoPrices,
    body: ({ P }) => ({ project_id: P }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      fields: { honoured: ['llm_id'] },
      query: { honoured: { $expr: { $eq: [{ $getField: 'llm_id' }, { $literal: 'm-b' }] } } },
      sort_by: { honoured: [{ field: 'llm_id', direction: 'desc' }] },
      limit: { honoured: 1 },
      offset: { honoured: 1 },
    },
  },
  {
    path: '/cost/purge',
    model: 'CostPurgeReq',
    setup: twoPrices,
    body: ({ P, first }) => ({ project_id: P, query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: first }] } } }),
    observe: allPrices,
    fields: { project_id: { required: true }, query: { required: true } },
  },
];
