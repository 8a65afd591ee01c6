// Stable order of cost/query: prices that tie on created_at and on every requested sort field come
// back in id order (the unique tie-break), read after read and across pages, whatever order they
// were written in; prices without a sorted value (the cache prices) last in both databases.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { costMethods } from '../../src/costs/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { expectOneOrder } from '../stable-order-checks.ts';

const ctx = { user: 'alice', source: undefined };
const P = 'stable/costs';
const SAME = '2025-06-03T09:00:00.000Z';
/** id → created_at and cache read price, written in this order, which is not id order. */
const WRITTEN: [string, string, string | null][] = [
  ['p4', SAME, '0.5'],
  ['p1', SAME, null],
  ['zz-late', '2026-01-01T00:00:00.000Z', null],
  ['p3', SAME, null],
  ['p0', SAME, '0.5'],
  ['aa-early', '2024-01-01T00:00:00.000Z', '0.25'],
  ['p2', SAME, '0.25'],
];
const TIED = ['p0', 'p1', 'p2', 'p3', 'p4'];

describeEachDialect('stable orders: cost/query', (getDb) => {
  const ids = async (req: Partial<T.CostQueryReq> = {}) =>
    ((await costMethods({ db: getDb() }).costQuery({ project_id: P, fields: ['id'], ...req }, ctx)).results as { id: string }[]).map(
      (r) => r.id,
    );

  beforeAll(async () => {
    // Written directly: cost/create's ids are increasing, so they could not come in another order.
    for (const [id, created_at, cache] of WRITTEN) {
      await getDb()
        .kysely.insertInto('llm_token_prices')
        .values({
          project_id: P,
          id,
          llm_id: 'm/same',
          provider_id: 'default',
          effective_date: SAME,
          prompt_token_cost: '0.000001',
          completion_token_cost: '0.000002',
          cache_read_input_token_cost: cache,
          cache_creation_input_token_cost: null,
          prompt_token_cost_unit: 'USD',
          completion_token_cost_unit: 'USD',
          svc_user_id: 'alice',
          created_at,
        })
        .execute();
    }
  });

  const all = [...WRITTEN.map(([id]) => id)].sort();
  const cases: [string, T.CostSortItem[] | undefined, string[]][] = [
    ['default (created_at, then id)', undefined, ['aa-early', ...TIED, 'zz-late']],
    ['created_at desc', [{ field: 'created_at', direction: 'desc' }], ['zz-late', ...TIED, 'aa-early']],
    ['llm_id (all equal)', [{ field: 'llm_id', direction: 'desc' }], all],
    ['a price (all equal)', [{ field: 'prompt_token_cost', direction: 'asc' }], all],
    ['effective_date (all equal)', [{ field: 'effective_date', direction: 'desc' }], all],
    ['pricing_level (the same on every price)', [{ field: 'pricing_level', direction: 'desc' }], all],
    [
      'cache price asc',
      [{ field: 'cache_read_input_token_cost', direction: 'asc' }],
      ['aa-early', 'p2', 'p0', 'p4', 'p1', 'p3', 'zz-late'],
    ],
    [
      'cache price desc',
      [{ field: 'cache_read_input_token_cost', direction: 'desc' }],
      ['p0', 'p4', 'aa-early', 'p2', 'p1', 'p3', 'zz-late'],
    ],
  ];
  for (const [label, sort_by, expected] of cases) {
    it(`${label}: one order on every read and across pages`, async () => {
      await expectOneOrder(ids, sort_by, expected);
      expect(await ids({ sort_by, offset: 3 })).toEqual(expected.slice(3));
    });
  }
});
