// cost/query: a project's prices as Weave's cost_query answers them (rows of `CostQueryOutput`),
// filtered by Weave's query language, sorted, paged. Unlike Weave, whose query replaces its
// project condition, a query here only narrows the project's own prices.
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { applyPaging, checkPaging, readPaged } from '../db/paging.ts';
import { weaveQueryCondition } from '../query/weave-query.ts';
import { costField, costOutput, costSortKey, type CostField } from './cost-fields.ts';

/** Weave's CostQueryOutput: what a query without `fields` answers. */
const OUTPUT_FIELDS: readonly CostField[] = [
  'id',
  'llm_id',
  'prompt_token_cost',
  'completion_token_cost',
  'cache_read_input_token_cost',
  'cache_creation_input_token_cost',
  'prompt_token_cost_unit',
  'completion_token_cost_unit',
  'effective_date',
  'provider_id',
];

export async function costQuery(db: Db, req: T.CostQueryReq): Promise<T.CostQueryRes> {
  const paging = checkPaging(req.limit, req.offset);
  const condition = weaveQueryCondition(
    db,
    req.query,
    costField,
    (c) => void db.kysely.selectFrom('llm_token_prices').select('id').where(c).compile(),
  );

  let query = db.kysely
    .selectFrom('llm_token_prices')
    .selectAll()
    .where('project_id', '=', req.project_id)
    .$if(condition !== undefined, (q) => q.where(condition!));
  const sorts = req.sort_by?.length ? req.sort_by : [{ field: 'created_at' as const, direction: 'asc' as const }];
  for (const { field, direction } of sorts) {
    const key = costSortKey(field);
    if (key) query = query.orderBy(key, (ob) => (direction === 'asc' ? ob.asc() : ob.desc()).nullsLast());
  }
  query = query.orderBy('id', 'asc');
  const rows = await readPaged(db, applyPaging(query, paging), paging);

  const wanted = req.fields?.length ? [...new Set(req.fields)] : OUTPUT_FIELDS;
  const results = rows.map((row) => {
    const all = costOutput(row);
    return Object.fromEntries(wanted.map((f) => [f, all[f]]));
  });
  return { results };
}
