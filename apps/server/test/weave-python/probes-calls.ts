// Field probes of the calls operations (see field-probe.ts). The seeded project: an object
// `thing`; a trace of call-a (op alpha, thread and turn, run-1, an input and an output ref to
// `thing`, usage of a model the router catalogue prices) with its failing child call-b (op beta); call-c, a running root;
// feedback on call-a.
import { answerOf, read, type Ctx, type Probe, type Verdict } from './field-probe.ts';
import type { PythonSdk } from './wire.ts';

const T0 = '2025-05-01T10:00:00.000000Z';
const op = (P: string, name: string) => `weave:///${P}/op/${name}:v1`;
const start = (P: string, id: string, fields: Record<string, unknown>) => ({
  project_id: P,
  id,
  op_name: op(P, 'alpha'),
  trace_id: 'trace-1',
  started_at: T0,
  attributes: {},
  inputs: {},
  ...fields,
});

export async function seedCalls(sdk: PythonSdk, P: string): Promise<Record<string, string>> {
  const { digest } = (await read(sdk, '/obj/create', { obj: { project_id: P, object_id: 'thing', val: { name: 'widget' } } })) as {
    digest: string;
  };
  const thing = `weave:///${P}/object/thing:${digest}`;
  const batch = [
    {
      mode: 'start',
      req: {
        start: start(P, 'call-a', {
          thread_id: 'thread-1',
          turn_id: 'turn-1',
          wb_run_id: 'run-1',
          attributes: { env: 'prod' },
          inputs: { question: 'hi', thing },
        }),
      },
    },
    {
      mode: 'start',
      req: {
        start: start(P, 'call-b', {
          op_name: op(P, 'beta'),
          parent_id: 'call-a',
          started_at: '2025-05-01T10:00:01.000000Z',
          inputs: { question: 'bye' },
        }),
      },
    },
    {
      mode: 'start',
      req: { start: start(P, 'call-c', { trace_id: 'trace-2', started_at: '2025-05-01T10:00:02.000000Z', inputs: { question: 'again' } }) },
    },
    {
      mode: 'end',
      req: { end: { project_id: P, id: 'call-b', ended_at: '2025-05-01T10:00:02.000000Z', exception: 'boom', output: null, summary: {} } },
    },
    {
      mode: 'end',
      req: {
        end: {
          project_id: P,
          id: 'call-a',
          ended_at: '2025-05-01T10:00:05.000000Z',
          output: { answer: 'hello', thing },
          summary: { usage: { 'meta-llama/Llama-3.1-8B-Instruct': { prompt_tokens: 1000, completion_tokens: 500, requests: 1 } } },
        },
      },
    },
  ];
  await read(sdk, '/call/upsert_batch', { batch });
  await read(sdk, '/feedback/create', {
    project_id: P,
    weave_ref: `weave:///${P}/call/call-a`,
    feedback_type: 'wandb.note.1',
    payload: { note: 'good' },
  });
  return { thing };
}

const callA = async (sdk: PythonSdk, ctx: Ctx) => read(sdk, '/call/read', { project_id: ctx.P, id: 'call-a' });
const allCalls = async (sdk: PythonSdk, ctx: Ctx) => read(sdk, '/calls/stream_query', { project_id: ctx.P });
const onlyB = { $expr: { $eq: [{ $getField: 'id' }, { $literal: 'call-b' }] } };
const throughThing = { $expr: { $eq: [{ $getField: 'inputs.thing.name' }, { $literal: 'widget' }] } };

/** CallsQueryReq's verdicts: calls/stream_query and calls/query take the same request. */
const callsQueryFields: Record<string, Verdict> = {
  project_id: { required: true },
  filter: { honoured: { call_ids: ['call-a'] } },
  limit: { honoured: 1 },
  offset: { honoured: 1 },
  latest_only: { refused: true, accepts: false },
  sort_by: { honoured: [{ field: 'started_at', direction: 'desc' }] },
  query: { honoured: onlyB },
  include_costs: { honoured: true },
  include_feedback: { honoured: true },
  include_storage_size: { honoured: true },
  include_total_storage_size: { honoured: true },
  include_usernames: { refused: true, accepts: false },
  columns: { honoured: ['op_name'] },
  expand_columns: { honoured: ['inputs.thing'] },
  return_expanded_column_values: { honoured: false, with: { expand_columns: ['inputs.thing'] } },
};

export const CALL_PROBES: Probe[] = [
  {
    path: '/call/start',
    model: 'StartedCallSchemaForInsert',
    at: ['start'],
    body: ({ P }) => ({ start: { project_id: P, id: 'call-a', op_name: op(P, 'alpha'), started_at: T0, attributes: {}, inputs: {} } }),
    observe: allCalls,
    fields: {
      project_id: { required: true },
      id: { honoured: 'call-z' },
      op_name: { required: true },
      display_name: { honoured: 'Named' },
      trace_id: { honoured: 'trace-9' },
      parent_id: { honoured: 'call-p' },
      thread_id: { honoured: 'thread-9' },
      turn_id: { honoured: 'turn-9' },
      started_at: { required: true },
      attributes: { required: true },
      inputs: { required: true },
      otel_dump: { refused: { span: {} }, accepts: null },
      wb_user_id: { unchanged: 'someone-else', why: 'the server records the authenticated user (Weave: "do not set directly")' },
      wb_run_id: { honoured: 'run-9' },
      wb_run_step: { honoured: 7 },
    },
  },
  {
    path: '/call/end',
    model: 'EndedCallSchemaForInsert',
    at: ['end'],
    setup: async (sdk, P) => {
      await read(sdk, '/call/start', { start: start(P, 'call-a', {}) });
      return {};
    },
    body: ({ P }) => ({ end: { project_id: P, id: 'call-a', ended_at: '2025-05-01T10:00:05.000000Z', summary: {} } }),
    observe: callA,
    fields: {
      project_id: { required: true },
      id: { required: true },
      trace_id: { refused: 'trace-other', accepts: 'trace-1' },
      is_eval: { unchanged: true, why: "a hint for Weave's ingest sampler; Weft samples nothing and keeps every call" },
      ended_at: { required: true },
      started_at: { refused: '2025-05-01T09:00:00.000000Z', accepts: T0 },
      exception: { honoured: 'boom' },
      output: { honoured: { answer: 1 } },
      summary: { required: true },
      wb_run_step_end: { honoured: 3 },
    },
  },
  {
    path: '/call/read',
    model: 'CallReadReq',
    setup: seedCalls,
    body: ({ P }) => ({ project_id: P, id: 'call-a' }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      id: { required: true },
      include_costs: { honoured: true },
      include_storage_size: { honoured: true },
      include_total_storage_size: { honoured: true },
    },
  },
  {
    path: '/call/update',
    model: 'CallUpdateReq',
    setup: async (sdk, P) => {
      await read(sdk, '/call/start', { start: start(P, 'call-a', {}) });
      return {};
    },
    body: ({ P }) => ({ project_id: P, call_id: 'call-a', display_name: 'Renamed' }),
    observe: callA,
    fields: {
      project_id: { required: true },
      call_id: { required: true },
      // Weave's is optional; the seed's interface makes it required (the only update there is).
      display_name: { required: true },
      wb_user_id: { unchanged: 'someone-else', why: 'the server records the authenticated user' },
    },
  },
  {
    path: '/calls/delete',
    model: 'CallsDeleteReq',
    setup: seedCalls,
    body: ({ P }) => ({ project_id: P, call_ids: ['call-b'] }),
    observe: allCalls,
    fields: {
      project_id: { required: true },
      call_ids: { required: true },
      wb_user_id: { unchanged: 'someone-else', why: 'the server records the authenticated user' },
    },
  },
  ...(['/calls/stream_query', '/calls/query'] as const).map((path): Probe => ({
    path,
    model: 'CallsQueryReq',
    setup: seedCalls,
    body: ({ P }) => ({ project_id: P }),
    observe: answerOf,
    fields: callsQueryFields,
  })),
  {
    path: '/calls/stream_query',
    model: 'CallsFilter',
    at: ['filter'],
    setup: seedCalls,
    body: ({ P }) => ({ project_id: P, filter: {}, columns: ['id'] }),
    observe: answerOf,
    fields: {
      op_names: { honoured: ({ P }: Ctx) => [op(P, 'beta')] },
      input_refs: { honoured: ({ thing }: Ctx) => [thing] },
      output_refs: { honoured: ({ thing }: Ctx) => [thing] },
      parent_ids: { honoured: ['call-a'] },
      trace_ids: { honoured: ['trace-2'] },
      call_ids: { honoured: ['call-c'] },
      thread_ids: { honoured: ['thread-1'] },
      turn_ids: { honoured: ['turn-1'] },
      trace_roots_only: { honoured: true },
      wb_user_ids: { honoured: ['bob'] },
      wb_run_ids: { honoured: ['run-1'] },
    },
  },
  {
    path: '/calls/stream_query',
    model: 'SortBy',
    at: ['sort_by', 0],
    setup: seedCalls,
    body: ({ P }) => ({ project_id: P, sort_by: [{ field: 'started_at', direction: 'asc' }], columns: ['id'] }),
    observe: answerOf,
    fields: { field: { required: true }, direction: { required: true } },
  },
  {
    path: '/calls/query_stats',
    model: 'CallsQueryStatsReq',
    setup: seedCalls,
    body: ({ P }) => ({ project_id: P }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      filter: { honoured: { call_ids: ['call-a'] } },
      query: { honoured: onlyB },
      limit: { honoured: 1 },
      include_total_storage_size: { refused: true, accepts: false },
      // Expanding changes no count unless the query reaches through the ref, which is refused.
      expand_columns: { refused: ['inputs.thing'], with: { query: throughThing }, accepts: null },
    },
  },
];
