// calls/stream_query sorted by Weft's summary.weave.total_tokens and summary.weave.total_cost, on
// both databases: the order is the one include_costs' own numbers give (the SQL restates
// @weft/core's readUsage and price choice, and is held to them here), calls without usage or
// without any price come last in both directions, ties fall to the id, pages (offset) join up.
import { parseLossless, readUsage, toPlain } from '@weft/core';
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import { CATALOGUE_TABLE, catalogueTable, totalCostExpr, totalTokensExpr } from '../../src/calls/call-usage-sort.ts';
import { callsStreamQuery } from '../../src/calls/calls-stream-query.ts';
import { costMethods } from '../../src/costs/index.ts';
import type { Db } from '../../src/db/index.ts';
import { withRawTables } from '../../src/db/with-raw-tables.ts';
import { describeEachDialect } from '../dialects.ts';
import { callsOf, catalogue, ctx, endReq, startReq, weaveOf } from './call-fixtures.ts';

const LLAMA = 'meta-llama/Llama-3.1-8B-Instruct'; // in the catalogue since 2024-07-23
const LLAMA_70B = 'meta-llama/Llama-3.1-70B-Instruct';
const CUSTOM = 'acme/custom'; // priced by the project only
const UNPRICED = 'acme/unpriced'; // priced nowhere
const TOKENS = 'summary.weave.total_tokens';
const COST = 'summary.weave.total_cost';

/** id → [started_at, summary]; every call ends, so only the usage differs. */
const CALLS: Record<string, [string, Record<string, unknown>]> = {
  // One catalogue model, then two models (catalogue + project price, with input/output names).
  one: ['2025-02-01T00:00:00.000Z', { usage: { [LLAMA]: { prompt_tokens: 1000, completion_tokens: 100 } } }],
  two: [
    '2025-02-02T00:00:00.000Z',
    {
      usage: { [LLAMA]: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 500 }, [CUSTOM]: { input_tokens: 3, output_tokens: 2 } },
    },
  ],
  // The same usage as `one`: a tie in both fields, broken by id.
  one_too: ['2025-02-03T00:00:00.000Z', { usage: { [LLAMA]: { prompt_tokens: 1000, completion_tokens: 100 } } }],
  // Usage but no price for it: sorted by tokens, last by cost.
  unpriced: ['2025-02-04T00:00:00.000Z', { usage: { [UNPRICED]: { prompt_tokens: 90000, completion_tokens: 1 } } }],
  // No usage at all: last by both.
  bare: ['2025-02-05T00:00:00.000Z', {}],
  // Cache reads and writes at the project's own cache prices; total_tokens null counts as absent.
  cached: [
    '2025-02-06T00:00:00.000Z',
    {
      usage: {
        [CUSTOM]: {
          prompt_tokens: 100,
          completion_tokens: 10,
          total_tokens: null,
          prompt_tokens_details: { cached_tokens: 40 },
          cache_creation_input_tokens: 30,
        },
      },
    },
  ],
  // Started before the project's first price of CUSTOM: that later price applies (no catalogue entry).
  early: ['2024-01-01T00:00:00.000Z', { usage: { [CUSTOM]: { prompt_tokens: 7, completion_tokens: 7.9 } } }],
  // The router's recorded price wins for its model; the other model is priced as usual.
  routed: [
    '2025-02-07T00:00:00.000Z',
    {
      usage: { [LLAMA_70B]: { prompt_tokens: 10, completion_tokens: 10 }, [LLAMA]: { prompt_tokens: 1, completion_tokens: 1 } },
      gateway: { model: LLAMA_70B, provider: 'acme-gpu', pricing: { prompt: '0.1', completion: '0.2', input_cache_read: '0' } },
    },
  ],
  // Odd stored counts read as readUsage reads them: a string counts 0 (no fallback to the alias),
  // a negative 0, a fraction truncated.
  odd: [
    '2025-02-08T00:00:00.000Z',
    {
      usage: {
        [LLAMA_70B]: { prompt_tokens: '900', input_tokens: 900, completion_tokens: -5, output_tokens: 5, requests: 1 },
        [LLAMA]: 'x',
      },
    },
  ],
};

async function seed(db: Db, p: string): Promise<void> {
  const calls = callsOf(db);
  for (const [id, [started_at, summary]] of Object.entries(CALLS)) {
    await calls.callStart(startReq(p, { id, started_at }), ctx);
    await calls.callEnd(endReq(p, id, { ended_at: started_at, summary }), ctx);
  }
  const add = (project: string, llm: string, price: Record<string, unknown>) => {
    const source = parseLossless(JSON.stringify({ project_id: project, costs: { [llm]: price } }));
    return costMethods({ db }).costCreate(toPlain(source) as T.CostCreateReq, { user: 'alice', source });
  };
  await add(p, CUSTOM, {
    prompt_token_cost: 0.5,
    completion_token_cost: 1,
    cache_read_input_token_cost: 0.25,
    cache_creation_input_token_cost: 0.75,
    effective_date: '2025-01-01T00:00:00Z',
  });
  // Not yet in effect for any call here but `early` (which starts before every price).
  await add(p, CUSTOM, { prompt_token_cost: 2, completion_token_cost: 3, effective_date: '2026-01-01T00:00:00Z' });
  // The project's price of LLAMA from 2025-02-02 on: `two`, `one_too`, … use it; `one` the catalogue's.
  await add(p, LLAMA, { prompt_token_cost: 0.001, completion_token_cost: 0.002, effective_date: '2025-02-02T00:00:00Z' });
  // Another project's prices change nothing here.
  await add(`${p}-other`, UNPRICED, { prompt_token_cost: 9, completion_token_cost: 9, effective_date: '2020-01-01T00:00:00Z' });
}

async function stream(db: Db, req: T.CallsStreamQueryReq, pageSize?: number): Promise<T.CallSchema[]> {
  const out: T.CallSchema[] = [];
  for await (const call of callsStreamQuery(db, catalogue, req, ctx, pageSize)) out.push(call);
  return out;
}

type Num = number | undefined;
/** The token total by readUsage over the stored usage; undefined without models. */
const tokensOf = (call: T.CallSchema): Num => {
  const usage = (call.summary as { usage?: Record<string, unknown> }).usage ?? {};
  const models = Object.values(usage);
  return models.length === 0 ? undefined : models.reduce<number>((sum, u) => sum + readUsage(u).total_tokens, 0);
};
/** What include_costs answers, summed as Studio's Cost column sums it; undefined when unpriced. */
const costOf = (call: T.CallSchema): Num => {
  const costs = Object.values(
    (weaveOf(call).costs ?? {}) as Record<string, { prompt_tokens_total_cost: number; completion_tokens_total_cost: number }>,
  );
  return costs.length === 0 ? undefined : costs.reduce((sum, c) => sum + c.prompt_tokens_total_cost + c.completion_tokens_total_cost, 0);
};

/** Each call's sort value as the database computes it (the stream never answers it). */
async function sortValues(db: Db, p: string, field: 'tokens' | 'cost'): Promise<Record<string, Num>> {
  const expr = field === 'tokens' ? totalTokensExpr(db) : totalCostExpr(db);
  const rows = await withRawTables(db, [{ name: CATALOGUE_TABLE, select: catalogueTable(db, catalogue) }])
    .selectFrom('calls')
    .select(['calls.id', expr.as('value')])
    .where('calls.project_id', '=', p)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.value === null ? undefined : Number(r.value)]));
}

/** Values ascending or descending, undefined last either way, ties by id ascending. */
function expectedOrder(calls: T.CallSchema[], value: (c: T.CallSchema) => Num, direction: 'asc' | 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...calls]
    .sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      if (x !== y) {
        if (x === undefined) return 1;
        if (y === undefined) return -1;
        return sign * (x - y);
      }
      return a.id < b.id ? -1 : 1;
    })
    .map((c) => c.id);
}

describeEachDialect('calls/stream_query sorted by tokens and cost', (getDb) => {
  it('orders by the token total readUsage gives, no usage last both ways, through OFFSET pages', async () => {
    const db = getDb();
    const p = 'usage-sort/tokens';
    await seed(db, p);
    const all = await stream(db, { project_id: p });
    // The fixtures' totals, so the expected order is not a tautology of the fixtures.
    expect(Object.fromEntries(all.map((c) => [c.id, tokensOf(c)]))).toEqual({
      one: 1100,
      two: 505,
      one_too: 1100,
      unpriced: 90001,
      bare: undefined,
      cached: 110,
      early: 14,
      routed: 22,
      odd: 0,
    });
    expect(await sortValues(db, p, 'tokens')).toEqual(Object.fromEntries(all.map((c) => [c.id, tokensOf(c)])));
    for (const direction of ['asc', 'desc'] as const) {
      const want = expectedOrder(all, tokensOf, direction);
      expect(want.at(-1)).toBe('bare');
      const req = { project_id: p, sort_by: [{ field: TOKENS, direction }] };
      expect(
        (await stream(db, req)).map((c) => c.id),
        direction,
      ).toEqual(want);
      // Pages of 2 read by the stream itself, and pages asked for with limit and offset.
      expect((await stream(db, req, 2)).map((c) => c.id)).toEqual(want);
      const paged: string[] = [];
      for (let offset = 0; offset < want.length; offset += 4)
        paged.push(...(await stream(db, { ...req, limit: 4, offset })).map((c) => c.id));
      expect(paged).toEqual(want);
    }
    expect((await stream(db, { project_id: p, sort_by: [{ field: TOKENS, direction: 'desc' }] })).map((c) => c.id).slice(0, 4)).toEqual([
      'unpriced',
      'one',
      'one_too',
      'two',
    ]);
  });

  it('orders by the cost include_costs answers, each model at the price it used; unpriced and bare last', async () => {
    const db = getDb();
    const p = 'usage-sort/cost';
    await seed(db, p);
    const all = await stream(db, { project_id: p, include_costs: true });
    const costs = Object.fromEntries(all.map((c) => [c.id, costOf(c)]));
    // Each pricing path is exercised: catalogue, project (cache prices), the later price, recorded.
    expect(costs.unpriced).toBeUndefined();
    expect(costs.bare).toBeUndefined();
    expect(costs.one).toBeCloseTo(1000 * 0.00000022 + 100 * 0.00000022, 12);
    expect(costs.one_too).toBeCloseTo(1000 * 0.001 + 100 * 0.002, 12);
    expect(costs.cached).toBeCloseTo(30 * 0.5 + 40 * 0.25 + 30 * 0.75 + 10 * 1, 12);
    expect(costs.early).toBeCloseTo(7 * 2 + 7 * 3, 12);
    expect(costs.routed).toBeCloseTo(10 * 0.1 + 10 * 0.2 + 1 * 0.001 + 1 * 0.002, 12);
    expect(costs.odd).toBe(0);
    // The database's cost of every call is include_costs' (to a double's rounding of the sum).
    const computed = await sortValues(db, p, 'cost');
    expect(Object.keys(computed).sort()).toEqual(Object.keys(costs).sort());
    for (const [id, cost] of Object.entries(costs)) {
      if (cost === undefined) expect(computed[id], id).toBeUndefined();
      else expect(computed[id], id).toBeCloseTo(cost, 12);
    }
    for (const direction of ['asc', 'desc'] as const) {
      const want = expectedOrder(all, costOf, direction);
      expect(new Set(want.slice(-2)), direction).toEqual(new Set(['bare', 'unpriced']));
      const req = { project_id: p, sort_by: [{ field: COST, direction }] };
      expect(
        (await stream(db, req)).map((c) => c.id),
        direction,
      ).toEqual(want);
      expect((await stream(db, req, 3)).map((c) => c.id)).toEqual(want);
      const paged: string[] = [];
      for (let offset = 0; offset < want.length; offset += 2)
        paged.push(...(await stream(db, { ...req, limit: 2, offset })).map((c) => c.id));
      expect(paged).toEqual(want);
    }
  });

  it('ties on tokens break by the next sort key, then by id', async () => {
    const db = getDb();
    const p = 'usage-sort/ties';
    await seed(db, p);
    const order = async (sort_by: T.CallsSortItem[]) =>
      (await stream(db, { project_id: p, sort_by, filter: { call_ids: ['one', 'one_too'] } })).map((c) => c.id);
    expect(await order([{ field: TOKENS, direction: 'desc' }])).toEqual(['one', 'one_too']);
    expect(
      await order([
        { field: TOKENS, direction: 'asc' },
        { field: 'started_at', direction: 'desc' },
      ]),
    ).toEqual(['one_too', 'one']);
  });

  it('refuses both fields in a query by name, and lists them among the sort fields', async () => {
    const db = getDb();
    const p = 'usage-sort/refused';
    for (const field of [TOKENS, COST]) {
      const query = { $expr: { $gt: [{ $getField: field }, { $literal: 1 }] } } as unknown as T.CallsQuery;
      const refused = stream(db, { project_id: p, query });
      await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining(`${field} can be sorted on`) });
    }
    await expect(stream(db, { project_id: p, sort_by: [{ field: 'nope', direction: 'asc' }] })).rejects.toThrow(
      /summary\.weave\.total_tokens, summary\.weave\.total_cost/,
    );
    await expect(stream(db, { project_id: p, sort_by: [{ field: 'summary.weave.costs', direction: 'asc' }] })).rejects.toThrow(
      /status, latency_ms, total_tokens and total_cost/,
    );
  });
});
