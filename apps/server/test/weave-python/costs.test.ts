// A project's prices as the Weave Python SDK sets, reads and removes them (weave_client.py):
// `client.add_cost(...)` posts /cost/create, `client.query_costs(...)` /cost/query and
// `client.purge_costs(ids)` /cost/purge; then `client.get_calls(include_costs=True)` reads the
// calls priced at them. Bodies exactly as pydantic writes them: no Content-Type, every field,
// floats as pydantic spells them (`1.5e-7`), naive datetimes without an offset. Both databases.
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { pythonSdk } from './wire.ts';

const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';
/** Weave's CostQueryOutput fields: what query_costs parses each result into. */
const OUTPUT_KEYS = [
  'cache_creation_input_token_cost',
  'cache_read_input_token_cost',
  'completion_token_cost',
  'completion_token_cost_unit',
  'effective_date',
  'id',
  'llm_id',
  'prompt_token_cost',
  'prompt_token_cost_unit',
  'provider_id',
];

describeEachDatabase('Weave Python SDK: project costs', (getServer) => {
  it('add_cost, query_costs, get_calls(include_costs=True) and purge_costs', async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const p = 'acme/py-costs';

    // client.add_cost(llm_id=MODEL, prompt_token_cost=1.5e-7, completion_token_cost=6e-7,
    //                 effective_date=datetime(2025, 1, 1))  — a naive datetime; the SDK's own
    // TSI model (no cache fields), every field written out.
    const added = await sdk.postText(
      '/cost/create',
      `{"project_id":"${p}","costs":{"${MODEL}":{"prompt_token_cost":1.5e-7,"completion_token_cost":6e-7,"prompt_token_cost_unit":"USD","completion_token_cost_unit":"USD","effective_date":"2025-01-01T00:00:00","provider_id":"default"}},"wb_user_id":null}`,
    );
    expect(added.status).toBe(200);
    const [[jan, llm]] = ((await added.json()) as { ids: [string, string][] }).ids as [[string, string]];
    expect(llm).toBe(MODEL);
    // The newest SDK's CostCreateInput writes its cache prices' defaults (0.0), and the add_cost
    // default effective_date: now, aware, with microseconds.
    const later = await sdk.postText(
      '/cost/create',
      `{"project_id":"${p}","costs":{"${MODEL}":{"prompt_token_cost":3e-7,"completion_token_cost":0.0000012,"cache_read_input_token_cost":0.0,"cache_creation_input_token_cost":0.0,"prompt_token_cost_unit":"USD","completion_token_cost_unit":"USD","effective_date":"2025-03-01T12:30:00.123456Z","provider_id":"default"}},"wb_user_id":null}`,
    );
    expect(later.status).toBe(200);
    const [[mar]] = ((await later.json()) as { ids: [string, string][] }).ids as [[string, string]];

    // client.query_costs(llm_ids=[MODEL]): the SDK's own default expression, and the model.
    const queried = await sdk.post('/cost/query', {
      project_id: p,
      fields: null,
      query: {
        $expr: { $and: [{ $eq: [{ $literal: '1' }, { $literal: '1' }] }, { $in: [{ $getField: 'llm_id' }, [{ $literal: MODEL }]] }] },
      },
      sort_by: null,
      limit: 100,
      offset: 0,
    });
    expect(queried.status).toBe(200);
    const { results } = (await queried.json()) as { results: Record<string, unknown>[] };
    for (const r of results) expect(Object.keys(r).sort()).toEqual(OUTPUT_KEYS);
    expect(results).toEqual([
      {
        id: jan,
        llm_id: MODEL,
        prompt_token_cost: 1.5e-7,
        completion_token_cost: 6e-7,
        cache_read_input_token_cost: null,
        cache_creation_input_token_cost: null,
        prompt_token_cost_unit: 'USD',
        completion_token_cost_unit: 'USD',
        effective_date: '2025-01-01T00:00:00.000Z',
        provider_id: 'default',
      },
      expect.objectContaining({
        id: mar,
        prompt_token_cost: 3e-7,
        cache_read_input_token_cost: 0,
        effective_date: '2025-03-01T12:30:00.123Z',
      }),
    ]);
    // client.query_costs("<id>").
    const one = await sdk.post('/cost/query', {
      project_id: p,
      fields: null,
      query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: mar }] } },
      sort_by: null,
      limit: 100,
      offset: 0,
    });
    expect(((await one.json()) as { results: { id: string }[] }).results.map((r) => r.id)).toEqual([mar]);

    // A call of February (the January price) and one of April (March's), with usage.
    const call = (id: string, at: string) => ({
      batch: [
        {
          mode: 'start',
          req: {
            start: {
              project_id: p,
              id,
              op_name: 'openai.chat.completions.create',
              display_name: null,
              trace_id: id,
              parent_id: null,
              thread_id: null,
              turn_id: null,
              started_at: at,
              attributes: {},
              inputs: {},
              otel_dump: null,
              wb_user_id: null,
              wb_run_id: null,
              wb_run_step: null,
            },
          },
        },
        {
          mode: 'end',
          req: {
            end: {
              project_id: p,
              id,
              ended_at: at,
              exception: null,
              output: null,
              summary: { usage: { [MODEL]: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100, requests: 1 } } },
              wb_run_step_end: null,
            },
          },
        },
      ],
    });
    for (const [id, at] of [
      ['c-feb', '2025-02-10T08:00:00.000000Z'],
      ['c-apr', '2025-04-10T08:00:00.000000Z'],
    ] as const)
      expect((await sdk.post('/call/upsert_batch', call(id, at))).status).toBe(200);

    // client.get_calls(include_costs=True): JSON Lines of CallSchema.
    const getCalls = async () => {
      const res = await sdk.post('/calls/stream_query', {
        project_id: p,
        filter: null,
        limit: null,
        offset: null,
        sort_by: [{ field: 'started_at', direction: 'asc' }],
        query: null,
        include_costs: true,
        include_feedback: false,
        include_storage_size: false,
        include_total_storage_size: false,
        columns: null,
        expand_columns: null,
        return_expanded_column_values: true,
      });
      expect(res.status).toBe(200);
      const text = new TextDecoder().decode(await res.bytes());
      return text
        .split('\n')
        .filter(Boolean)
        .map(
          (l) => (JSON.parse(l) as { summary: { weave: { costs: Record<string, Record<string, unknown>> } } }).summary.weave.costs[MODEL],
        );
    };
    const [feb, apr] = await getCalls();
    expect(feb).toMatchObject({
      prompt_tokens_total_cost: 0.00015, // 1000 × 1.5e-7, exactly
      completion_tokens_total_cost: 0.00006,
      prompt_token_cost: 1.5e-7,
      effective_date: '2025-01-01T00:00:00.000Z',
      provider_id: 'default',
      pricing_level: 'project',
      pricing_level_id: p,
      created_by: 'alice',
    });
    expect(apr).toMatchObject({
      prompt_tokens_total_cost: 0.0003,
      completion_tokens_total_cost: 0.00012,
      effective_date: '2025-03-01T12:30:00.123Z',
    });

    // client.purge_costs([jan]): the February call falls back to the catalogue's price.
    const purged = await sdk.post('/cost/purge', { project_id: p, query: { $expr: { $in: [{ $getField: 'id' }, [{ $literal: jan }]] } } });
    expect(purged.status).toBe(200);
    expect(await purged.json()).toEqual({ num_deleted: 1 });
    const [febAfter] = await getCalls();
    expect(febAfter).toMatchObject({ pricing_level: 'default', provider_id: 'weft', prompt_tokens_total_cost: 0.00022 });

    // What pydantic would refuse, Weft refuses too: a field CostCreateInput does not have.
    const unknown = await sdk.postText(
      '/cost/create',
      `{"project_id":"${p}","costs":{"m":{"prompt_token_cost":1,"completion_token_cost":1,"request_cost":1}},"wb_user_id":null}`,
    );
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(await unknown.json())).toContain('request_cost');
  });
});
