// The fields of a project's prices, as Weave names them (its `llm_token_prices` columns): what
// cost/query's `query` may name ($getField), sort by and answer. The language itself:
// query/weave-query.ts.
import type * as T from '@weft/types';
import { sql, type Expression } from 'kysely';
import type { Row } from '../db/index.ts';
import { constantText, decimalColumn, queryFail, textColumn, timeColumn, type Value } from '../query/weave-query.ts';

export type CostField = T.CostField;
type PriceRow = Row<'llm_token_prices'>;

/** Weave's text fields → column. */
const TEXT_COLUMNS: Partial<Record<CostField, keyof PriceRow>> = {
  id: 'id',
  llm_id: 'llm_id',
  provider_id: 'provider_id',
  prompt_token_cost_unit: 'prompt_token_cost_unit',
  completion_token_cost_unit: 'completion_token_cost_unit',
  created_by: 'svc_user_id',
  // Every price here is a project's: its level id is the project.
  pricing_level_id: 'project_id',
};
const TIME_FIELDS = new Set<string>(['effective_date', 'created_at']);
const PRICE_FIELDS = new Set<string>([
  'prompt_token_cost',
  'completion_token_cost',
  'cache_read_input_token_cost',
  'cache_creation_input_token_cost',
]);

/** A field of the query language. */
export function costField(name: string): Value {
  if (TIME_FIELDS.has(name)) return timeColumn(`llm_token_prices.${name}`);
  if (PRICE_FIELDS.has(name)) return decimalColumn(`llm_token_prices.${name}`);
  if (name === 'pricing_level') return constantText('project');
  const column = TEXT_COLUMNS[name as CostField];
  if (column) return textColumn(`llm_token_prices.${column}`);
  return queryFail(`unknown field ${JSON.stringify(name)}`);
}

/** What a sort by `field` orders by; undefined for the fields that are the same on every row. */
export function costSortKey(field: CostField): Expression<unknown> | undefined {
  if (field === 'pricing_level' || field === 'pricing_level_id') return undefined;
  if (PRICE_FIELDS.has(field)) return sql`cast(${sql.ref(`llm_token_prices.${field}`)} as double precision)`;
  return sql.ref(`llm_token_prices.${TEXT_COLUMNS[field] ?? field}`);
}

/** A stored price as Weave's `CostQueryOutput` (and its other columns) names it. */
export function costOutput(row: PriceRow): Required<T.CostQueryOutput> {
  const number = (text: string | null) => (text === null ? null : Number(text));
  return {
    id: row.id,
    llm_id: row.llm_id,
    prompt_token_cost: Number(row.prompt_token_cost),
    completion_token_cost: Number(row.completion_token_cost),
    cache_read_input_token_cost: number(row.cache_read_input_token_cost),
    cache_creation_input_token_cost: number(row.cache_creation_input_token_cost),
    prompt_token_cost_unit: row.prompt_token_cost_unit,
    completion_token_cost_unit: row.completion_token_cost_unit,
    effective_date: row.effective_date,
    provider_id: row.provider_id,
    pricing_level: 'project',
    pricing_level_id: row.project_id,
    created_at: row.created_at,
    created_by: row.svc_user_id,
  };
}
