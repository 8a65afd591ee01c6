// A project's prices (cost/create, cost/query, cost/purge) and how include_costs uses them, on
// both databases: exact decimals from the request's lexemes, Weave's query language over prices,
// purge by id only, and the effective-dated choice between a project's price and the catalogue's.
import { parseLossless, toPlain } from '@weft/core';
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { costMethods } from '../../src/costs/index.ts';
import type { Db } from '../../src/db/index.ts';
import type { LosslessContext } from '../../src/store.ts';
import { callsOf, ctx, endReq, startReq, weaveOf } from '../calls/call-fixtures.ts';
import { describeEachDialect } from '../dialects.ts';

const LLAMA = 'meta-llama/Llama-3.1-8B-Instruct';

/** As the HTTP layer hands a lossless body: the plain value and its tree. */
function viaHttp(body: string, user = 'alice'): [T.CostCreateReq, LosslessContext] {
  const source = parseLossless(body);
  return [toPlain(source) as T.CostCreateReq, { user, source }];
}
const add = (db: Db, project: string, llm: string, price: Record<string, unknown>, user = 'alice') =>
  costMethods({ db }).costCreate(...viaHttp(JSON.stringify({ project_id: project, costs: { [llm]: price } }), user));
const expr = (e: unknown) => ({ $expr: e }) as unknown as T.CallsQuery;

describeEachDialect('costs', (getDb) => {
  it('stores each price exactly as the client wrote it, with Weave defaults for what it left out', async () => {
    const db = getDb();
    const p = 'acme/exact';
    const body = `{"project_id":"${p}","costs":{"m/one":{"prompt_token_cost":5e-06,"completion_token_cost":0.00000012345678901234567890123,"prompt_token_cost_unit":null,"completion_token_cost_unit":null,"effective_date":null,"provider_id":null},"m/two":{"prompt_token_cost":1.5E+1,"completion_token_cost":0,"cache_read_input_token_cost":2.5e-7,"cache_creation_input_token_cost":0.0,"prompt_token_cost_unit":"EUR","completion_token_cost_unit":"tokens","effective_date":"1998-10-03T00:00:00","provider_id":"openai"}},"wb_user_id":"someone-else"}`;
    const res = await costMethods({ db }).costCreate(...viaHttp(body, 'bob'));
    expect(res.ids.map(([, llm]) => llm)).toEqual(['m/one', 'm/two']);
    const rows = await db.kysely.selectFrom('llm_token_prices').selectAll().where('project_id', '=', p).orderBy('llm_id').execute();
    expect(rows).toEqual([
      expect.objectContaining({
        id: res.ids[0]![0],
        prompt_token_cost: '0.000005',
        completion_token_cost: '0.00000012345678901234567890123',
        cache_read_input_token_cost: null,
        cache_creation_input_token_cost: null,
        prompt_token_cost_unit: 'USD',
        completion_token_cost_unit: 'USD',
        provider_id: 'default',
        // Not given: from now (when it was added).
        effective_date: rows[0]!.created_at,
        svc_user_id: 'bob',
      }),
      expect.objectContaining({
        id: res.ids[1]![0],
        prompt_token_cost: '15',
        completion_token_cost: '0',
        cache_read_input_token_cost: '0.00000025',
        cache_creation_input_token_cost: '0',
        prompt_token_cost_unit: 'EUR',
        completion_token_cost_unit: 'tokens',
        provider_id: 'openai',
        // A naive datetime (a Python datetime without tzinfo) is UTC, as Weave stores it.
        effective_date: '1998-10-03T00:00:00.000Z',
        svc_user_id: 'bob',
      }),
    ]);
    // A direct store user's JS numbers (no lexemes): the shortest text of each number.
    const direct = await costMethods({ db }).costCreate(
      { project_id: 'acme/direct', costs: { m: { prompt_token_cost: 2.2e-7, completion_token_cost: 1e-6 } } },
      { user: 'alice', source: undefined },
    );
    const stored = await db.kysely
      .selectFrom('llm_token_prices')
      .selectAll()
      .where('id', '=', direct.ids[0]![0]!)
      .executeTakeFirstOrThrow();
    expect([stored.prompt_token_cost, stored.completion_token_cost]).toEqual(['0.00000022', '0.000001']);
    expect(await costMethods({ db }).costCreate({ project_id: p, costs: {} }, { user: 'alice', source: undefined })).toEqual({ ids: [] });
  });

  it('refuses a negative price, a price no number is, and a date no datetime is, naming the field (422), storing nothing', async () => {
    const db = getDb();
    const p = 'acme/refused';
    const cases: [string, string[]][] = [
      ['{"prompt_token_cost":-1e-6,"completion_token_cost":1}', ['body', 'costs', 'm', 'prompt_token_cost']],
      ['{"prompt_token_cost":1,"completion_token_cost":NaN}', ['body', 'costs', 'm', 'completion_token_cost']],
      [
        '{"prompt_token_cost":1,"completion_token_cost":1,"cache_read_input_token_cost":Infinity}',
        ['body', 'costs', 'm', 'cache_read_input_token_cost'],
      ],
      ['{"prompt_token_cost":1,"completion_token_cost":1,"effective_date":"next tuesday"}', ['body', 'costs', 'm', 'effective_date']],
    ];
    for (const [price, loc] of cases) {
      const body = `{"project_id":"${p}","costs":{"ok":{"prompt_token_cost":1,"completion_token_cost":1},"m":${price}}}`;
      await expect(costMethods({ db }).costCreate(...viaHttp(body)), price).rejects.toMatchObject({ status: 422, detail: [{ loc }] });
    }
    expect(await costMethods({ db }).costQuery({ project_id: p }, ctx)).toEqual({ results: [] });
  });

  it("queries the project's prices with Weave's query language, sorted and paged, in Weave's output shape", async () => {
    const db = getDb();
    const costs = costMethods({ db });
    const p = 'acme/query';
    const a = await add(db, p, 'm/a', {
      prompt_token_cost: 0.000001,
      completion_token_cost: 0.000002,
      effective_date: '2025-01-01T00:00:00Z',
    });
    const b = await add(db, p, 'm/b', {
      prompt_token_cost: 0.00001,
      completion_token_cost: 0.00002,
      effective_date: '2025-03-01T00:00:00Z',
      provider_id: 'openai',
    });
    const c = await add(
      db,
      p,
      'm/a',
      { prompt_token_cost: 0.000003, completion_token_cost: 0.000004, effective_date: '2025-02-01T00:00:00Z' },
      'bob',
    );
    await add(db, 'acme/other', 'm/a', { prompt_token_cost: 1, completion_token_cost: 1 });
    const [ida, idb, idc] = [a, b, c].map((r) => r.ids[0]![0]!);

    const ids = async (req: Omit<T.CostQueryReq, 'project_id'>) =>
      (await costs.costQuery({ project_id: p, ...req }, ctx)).results.map((r) => r.id);
    // Default order: as added. Another project's price never appears, whatever the query.
    expect(await ids({})).toEqual([ida, idb, idc]);
    expect(await ids({ query: expr({ $eq: [{ $literal: '1' }, { $literal: '1' }] }) })).toEqual([ida, idb, idc]);
    // The SDK's query_costs(llm_ids=[…]) and query_costs(<id>).
    expect(
      await ids({
        query: expr({ $and: [{ $eq: [{ $literal: '1' }, { $literal: '1' }] }, { $in: [{ $getField: 'llm_id' }, [{ $literal: 'm/a' }]] }] }),
      }),
    ).toEqual([ida, idc]);
    expect(await ids({ query: expr({ $eq: [{ $getField: 'id' }, { $literal: idb }] }) })).toEqual([idb]);
    // Prices compare as numbers, dates as times, the creator by Weave's name.
    expect(await ids({ query: expr({ $gt: [{ $getField: 'prompt_token_cost' }, { $literal: 0.000002 }] }) })).toEqual([idb, idc]);
    expect(
      await ids({ query: expr({ $not: [{ $gte: [{ $getField: 'effective_date' }, { $literal: '2025-02-01T00:00:00Z' }] }] }) }),
    ).toEqual([ida]);
    expect(await ids({ query: expr({ $eq: [{ $getField: 'created_by' }, { $literal: 'bob' }] }) })).toEqual([idc]);
    expect(await ids({ query: expr({ $eq: [{ $getField: 'pricing_level' }, { $literal: 'project' }] }) })).toEqual([ida, idb, idc]);
    expect(await ids({ query: expr({ $eq: [{ $getField: 'cache_read_input_token_cost' }, { $literal: null }] }) })).toEqual([
      ida,
      idb,
      idc,
    ]);
    expect(
      await ids({
        query: expr({ $contains: { input: { $getField: 'provider_id' }, substr: { $literal: 'OPEN' }, case_insensitive: true } }),
      }),
    ).toEqual([idb]);
    // Sorted (numbers as numbers), then paged.
    expect(await ids({ sort_by: [{ field: 'prompt_token_cost', direction: 'desc' }] })).toEqual([idb, idc, ida]);
    expect(
      await ids({
        sort_by: [
          { field: 'llm_id', direction: 'asc' },
          { field: 'effective_date', direction: 'desc' },
        ],
      }),
    ).toEqual([idc, ida, idb]);
    expect(await ids({ sort_by: [{ field: 'effective_date', direction: 'asc' }], limit: 1, offset: 1 })).toEqual([idc]);
    expect(await ids({ offset: 2 })).toEqual([idc]);
    await expect(
      costs.costQuery({ project_id: p, query: expr({ $eq: [{ $getField: 'payload.x' }, { $literal: 1 }] }) }, ctx),
    ).rejects.toMatchObject({
      status: 400,
    });

    const [first] = (await costs.costQuery({ project_id: p, query: expr({ $eq: [{ $getField: 'id' }, { $literal: idb }] }) }, ctx)).results;
    expect(first).toEqual({
      id: idb,
      llm_id: 'm/b',
      prompt_token_cost: 0.00001,
      completion_token_cost: 0.00002,
      cache_read_input_token_cost: null,
      cache_creation_input_token_cost: null,
      prompt_token_cost_unit: 'USD',
      completion_token_cost_unit: 'USD',
      effective_date: '2025-03-01T00:00:00.000Z',
      provider_id: 'openai',
    });
    const asked = await costs.costQuery(
      { project_id: p, fields: ['llm_id', 'created_by', 'pricing_level', 'pricing_level_id'], limit: 1 },
      ctx,
    );
    expect(asked.results).toEqual([{ llm_id: 'm/a', created_by: 'alice', pricing_level: 'project', pricing_level_id: p }]);
  });

  it('purges by id ($eq, $in as the SDK sends it, $or of $eq) within the project only, and refuses any other query', async () => {
    const db = getDb();
    const costs = costMethods({ db });
    const p = 'acme/purge';
    const [a, b, c, d] = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (m) => (await add(db, p, m, { prompt_token_cost: 1, completion_token_cost: 1 })).ids[0]![0]!),
    );
    const byId = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] });
    expect(await costs.costPurge({ project_id: p, query: expr(byId(a!)) }, ctx)).toEqual({ num_deleted: 1 });
    expect(
      await costs.costPurge(
        { project_id: p, query: expr({ $in: [{ $getField: 'id' }, [{ $literal: b }, { $literal: 'unknown' }]] }) },
        ctx,
      ),
    ).toEqual({
      num_deleted: 1,
    });
    expect(await costs.costPurge({ project_id: p, query: expr({ $in: [{ $getField: 'id' }, []] }) }, ctx)).toEqual({ num_deleted: 0 });
    // Another project's purge of the same id removes nothing here.
    expect(await costs.costPurge({ project_id: 'acme/else', query: expr(byId(c!)) }, ctx)).toEqual({ num_deleted: 0 });
    for (const e of [
      { $eq: [{ $getField: 'llm_id' }, { $literal: 'c' }] },
      { $in: [{ $getField: 'llm_id' }, [{ $literal: 'c' }]] },
      { $and: [byId(c!)] },
      { $or: [{ $in: [{ $getField: 'id' }, [{ $literal: c }]] }] },
      { $in: [{ $getField: 'id' }, [{ $literal: 1 }]] },
      { $eq: [{ $literal: '1' }, { $literal: '1' }] },
    ])
      await expect(costs.costPurge({ project_id: p, query: expr(e) }, ctx), JSON.stringify(e)).rejects.toMatchObject({ status: 400 });
    expect(await costs.costPurge({ project_id: p, query: expr({ $or: [byId(c!)] }) }, ctx)).toEqual({ num_deleted: 1 });
    expect((await costs.costQuery({ project_id: p }, ctx)).results.map((r) => r.id)).toEqual([d]);
  });

  it("include_costs prices a call at the project's price in effect when it started, before the catalogue's", async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'acme/priced';
    const usage = { [LLAMA]: { prompt_tokens: 1000, completion_tokens: 100 }, 'acme/custom': { prompt_tokens: 10, completion_tokens: 1 } };
    for (const [id, started_at] of [
      ['old', '2024-12-01T00:00:00.000Z'],
      ['feb', '2025-02-15T00:00:00.000Z'],
      ['apr', '2025-04-01T00:00:00.000Z'],
    ] as const) {
      await calls.callStart(startReq(p, { id, started_at }), ctx);
      await calls.callEnd(endReq(p, id, { ended_at: started_at, summary: { usage } }), ctx);
    }
    const costsOf = async (id: string) =>
      weaveOf((await calls.callRead({ project_id: p, id, include_costs: true }, ctx)).call).costs as Record<
        string,
        Record<string, unknown>
      >;
    // No project price yet: the catalogue's, and the custom model is not priced.
    expect(Object.keys(await costsOf('feb'))).toEqual([LLAMA]);

    const jan = await add(db, p, LLAMA, {
      prompt_token_cost: 0.000001,
      completion_token_cost: 0.000002,
      effective_date: '2025-01-01T00:00:00Z',
      provider_id: 'meta',
    });
    await add(db, p, LLAMA, { prompt_token_cost: 0.000003, completion_token_cost: 0.000004, effective_date: '2025-03-01T00:00:00Z' });
    await add(db, p, 'acme/custom', { prompt_token_cost: 0.5, completion_token_cost: 1, effective_date: '2025-01-01T00:00:00Z' });
    // Another project's price of the same model changes nothing here.
    await add(db, 'acme/unpriced', LLAMA, { prompt_token_cost: 9, completion_token_cost: 9, effective_date: '2020-01-01T00:00:00Z' });

    const feb = await costsOf('feb');
    expect(feb[LLAMA]).toMatchObject({
      prompt_tokens_total_cost: 0.001,
      completion_tokens_total_cost: 0.0002,
      prompt_token_cost: 0.000001,
      effective_date: '2025-01-01T00:00:00.000Z',
      provider_id: 'meta',
      pricing_level: 'project',
      pricing_level_id: p,
      created_by: 'alice',
    });
    expect(feb['acme/custom']).toMatchObject({ prompt_tokens_total_cost: 5, completion_tokens_total_cost: 1, pricing_level: 'project' });
    expect((await costsOf('apr'))[LLAMA]).toMatchObject({ prompt_tokens_total_cost: 0.003, effective_date: '2025-03-01T00:00:00.000Z' });
    // Before the project's first price: the catalogue's, in effect since the model was released.
    expect((await costsOf('old'))[LLAMA]).toMatchObject({
      pricing_level: 'default',
      provider_id: 'weft',
      prompt_tokens_total_cost: 0.00022,
    });
    // calls/stream_query and calls/query price the same way.
    const streamed: T.CallSchema[] = [];
    for await (const call of calls.callsStreamQuery(
      { project_id: p, include_costs: true, sort_by: [{ field: 'started_at', direction: 'asc' }] },
      ctx,
    ) as AsyncIterable<T.CallSchema>)
      streamed.push(call);
    expect(streamed.map((c) => (weaveOf(c).costs as Record<string, { pricing_level: string }>)[LLAMA]?.pricing_level)).toEqual([
      'default',
      'project',
      'project',
    ]);
    const queried = await calls.callsQuery({ project_id: p, include_costs: true, filter: { call_ids: ['apr'] } }, ctx);
    expect(weaveOf(queried.calls[0]!).costs).toEqual(await costsOf('apr'));

    // Purged: the catalogue's again (the project's other price starts later than the call).
    await costMethods({ db }).costPurge({ project_id: p, query: expr({ $eq: [{ $getField: 'id' }, { $literal: jan.ids[0]![0] }] }) }, ctx);
    expect((await costsOf('feb'))[LLAMA]).toMatchObject({ pricing_level: 'default' });
    const rows = await sql<{ n: number }>`select count(*) as n from llm_token_prices where project_id = ${p}`.execute(db.kysely);
    expect(Number(rows.rows[0]?.n)).toBe(2);
  });
});
