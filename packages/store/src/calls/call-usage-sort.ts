// Weft's two sort fields over a call's own summary.usage, computed in the database:
// `summary.weave.total_tokens` and `summary.weave.total_cost`. Each is NULL for a call without
// usage (no models in summary.usage) or, for cost, without a price for any of its models, and
// sorts last in either direction.
//
// The SQL restates two pieces of @weft/core, which include_costs and Studio's columns use, and
// the store's tests hold the two to the same answers: readUsage (token counts of one model's
// usage) and computeCosts with choosePrice (which price applies: the price the router recorded
// with the call, else the project's price in effect when the call started, else the catalogue's
// if the model existed then, else the project's later price, else the catalogue's). A model's
// cost is its prompt cost (uncached, cache-read and cache-write tokens each at their price) plus
// its completion cost, as prompt_tokens_total_cost + completion_tokens_total_cost.
//
// Neither has an index: a sort reads every call the filters leave, and the cost looks up each
// model's project prices (llm_token_prices_llm_idx) and the catalogue (bound with the statement
// as one JSON parameter, read once into a common table expression).
import type { Catalogue } from '@weft/core';
import { sql, type Expression, type RawBuilder } from 'kysely';
import { bytewiseText, jsonPathAsText, jsonPathType, type Db } from '../db/index.ts';
import { decimalOf, isPlainDecimal, smallerOf, wholeOf } from '../db/dialect-decimals.ts';
import { jsonObjectMembers, jsonRecordsSelect, memberNumber, memberPresent } from '../db/dialect-json-objects.ts';

const MEMBER = 'weft_usage_member';
const COUNTS = 'weft_usage_counts';

/** summary.weave.total_tokens: the sum of each model's total_tokens (else prompt + completion). */
export function totalTokensExpr(db: Db): RawBuilder<number | null> {
  return sql<number | null>`(select sum(${sql.ref(`${COUNTS}.total`)}) from ${tokenCounts(db)})`;
}

/**
 * summary.weave.total_cost: the sum of the priced models' costs; NULL when none is priced. The
 * statement must hold catalogueTable as CATALOGUE_TABLE.
 */
export function totalCostExpr(db: Db): RawBuilder<number | null> {
  const col = (name: string) => sql.ref(`${COUNTS}.${name}`);
  const cached = smallerOf(db.dialect, col('cached'), col('prompt'));
  const creation = smallerOf(db.dialect, col('creation'), sql`(${col('prompt')} - ${cached})`);
  const cost = (r: Rates) =>
    sql`((${col('prompt')} - ${cached} - ${creation}) * ${r.prompt} + ${cached} * ${r.cacheRead}
      + ${creation} * ${r.cacheCreation} + ${col('completion')} * ${r.completion})`;
  const model = col('model');
  return sql<number | null>`(select sum(case
      when ${recordedFor(db, model)} then ${cost(recordedRates(db))}
      else coalesce(
        ${projectPrice(db, model, true, cost)},
        ${cataloguePrice(db, model, true, cost)},
        ${projectPrice(db, model, false, cost)},
        ${cataloguePrice(db, model, false, cost)})
      end) from ${tokenCounts(db)})`;
}

/**
 * One row per model of the call's summary.usage with readUsage's counts: a count is a
 * non-negative JSON number truncated (anything else counts 0), the OpenAI name is used when
 * present (not JSON null) and the `input_`/`output_` alias otherwise.
 */
function tokenCounts(db: Db): RawBuilder<unknown> {
  const d = db.dialect;
  const present = (...path: string[]) => memberPresent(d, MEMBER, path);
  const count = (...path: string[]) => {
    const n = memberNumber(d, MEMBER, path);
    return sql`coalesce(case when ${n} >= 0 then ${wholeOf(d, n)} end, 0)`;
  };
  const first = (...paths: string[][]): Expression<unknown> => {
    const [head, ...rest] = paths;
    return rest.length === 0 ? count(...head!) : sql`(case when ${present(...head!)} then ${count(...head!)} else ${first(...rest)} end)`;
  };
  const prompt = first(['prompt_tokens'], ['input_tokens']);
  const completion = first(['completion_tokens'], ['output_tokens']);
  const total = sql`(case when ${present('total_tokens')} then ${count('total_tokens')} else ${prompt} + ${completion} end)`;
  const cached = first(['cached_tokens'], ['prompt_tokens_details', 'cached_tokens'], ['input_tokens_details', 'cached_tokens']);
  return sql`(select ${sql.ref(`${MEMBER}.key`)} as model, ${prompt} as prompt, ${completion} as completion, ${total} as total,
      ${cached} as cached, ${count('cache_creation_input_tokens')} as creation
    from ${jsonObjectMembers(d, 'calls.summary', 'usage', MEMBER)}) as ${sql.id(COUNTS)}`;
}

interface Rates {
  prompt: Expression<unknown>;
  completion: Expression<unknown>;
  cacheRead: Expression<unknown>;
  cacheCreation: Expression<unknown>;
}
type Cost = (rates: Rates) => RawBuilder<unknown>;

const GATEWAY_PRICES = ['prompt', 'completion', 'input_cache_read'] as const;
const gatewayText = (db: Db, path: string[]) => jsonPathAsText(db, 'calls.summary', ['gateway', ...path]);

/** derive-summary.ts's recordedPrice, for `model`: summary.gateway names it and its prices are whole. */
function recordedFor(db: Db, model: Expression<unknown>): RawBuilder<unknown> {
  const isString = (path: string[]) => sql`${jsonPathType(db, 'calls.summary', ['gateway', ...path])} = 'string'`;
  const prices = GATEWAY_PRICES.map(
    (p) => sql`${isString(['pricing', p])} and ${isPlainDecimal(db.dialect, gatewayText(db, ['pricing', p]))}`,
  );
  return sql`(${isString(['model'])} and ${isString(['provider'])} and ${gatewayText(db, ['model'])} = ${model}
    and ${sql.join(prices, sql` and `)})`;
}

/** Checked by recordedFor first: CASE reads these only for whole prices. */
function recordedRates(db: Db): Rates {
  const price = (p: (typeof GATEWAY_PRICES)[number]) => decimalOf(db.dialect, gatewayText(db, ['pricing', p]));
  return { prompt: price('prompt'), completion: price('completion'), cacheRead: price('input_cache_read'), cacheCreation: price('prompt') };
}

/**
 * The cost at the project's latest price of the model (effective_date, then created_at, then id),
 * among those in effect when the call started, or among all; NULL without one.
 */
function projectPrice(db: Db, model: Expression<unknown>, inEffect: boolean, cost: Cost): RawBuilder<unknown> {
  const d = db.dialect;
  const c = (column: string) => sql.ref(`weft_price.${column}`);
  // Stored datetimes and ids compared as JS compares them: code unit by code unit.
  const text = (e: Expression<unknown>) => bytewiseText(d, e);
  const prompt = decimalOf(d, c('prompt_token_cost'));
  const rates: Rates = {
    prompt,
    completion: decimalOf(d, c('completion_token_cost')),
    cacheRead: sql`coalesce(${decimalOf(d, c('cache_read_input_token_cost'))}, ${prompt})`,
    cacheCreation: sql`coalesce(${decimalOf(d, c('cache_creation_input_token_cost'))}, ${prompt})`,
  };
  const started = inEffect ? sql`and ${text(c('effective_date'))} <= ${text(sql.ref('calls.started_at'))}` : sql``;
  return sql`(select ${cost(rates)} from llm_token_prices as weft_price
    where ${c('project_id')} = ${sql.ref('calls.project_id')} and ${c('llm_id')} = ${model} ${started}
    order by ${text(c('effective_date'))} desc, ${text(c('created_at'))} desc, ${text(c('id'))} desc limit 1)`;
}

/** The name of the catalogue's prices in a statement sorted by cost (catalogueTable). */
export const CATALOGUE_TABLE = 'weft_catalogue';

/**
 * The router catalogue's prices, for a statement sorted by cost to hold as a materialized common
 * table expression named CATALOGUE_TABLE: read once, not once per call and model. `created` is
 * the ISO text of the model's release, as choosePrice compares it with the stored start as text.
 */
export function catalogueTable(db: Db, catalogue: Catalogue): RawBuilder<unknown> {
  return jsonRecordsSelect(db.dialect, catalogueRows(catalogue), ['id', 'created', 'prompt', 'completion', 'cache_read']);
}

// A catalogue is fixed once loaded (a reload makes a new one): its rows are built once, not on
// every request sorted by cost.
const ROWS = new WeakMap<Catalogue, Record<string, string>[]>();
function catalogueRows(catalogue: Catalogue): Record<string, string>[] {
  let rows = ROWS.get(catalogue);
  if (rows === undefined) {
    rows = catalogue.entries.map((m) => ({
      id: m.id,
      created: new Date(m.created * 1000).toISOString(),
      prompt: m.pricing.prompt,
      completion: m.pricing.completion,
      cache_read: m.pricing.input_cache_read,
    }));
    ROWS.set(catalogue, rows);
  }
  return rows;
}

/** The cost at the catalogue's price of the model, if it existed when the call started (or at all). */
function cataloguePrice(db: Db, model: Expression<unknown>, inEffect: boolean, cost: Cost): RawBuilder<unknown> {
  const d = db.dialect;
  const c = (column: string) => sql.ref(`${CATALOGUE_TABLE}.${column}`);
  const text = (e: Expression<unknown>) => bytewiseText(d, e);
  const prompt = decimalOf(d, c('prompt'));
  const rates: Rates = {
    prompt,
    completion: decimalOf(d, c('completion')),
    cacheRead: decimalOf(d, c('cache_read')),
    cacheCreation: prompt,
  };
  const started = inEffect ? sql`and ${text(c('created'))} <= ${text(sql.ref('calls.started_at'))}` : sql``;
  return sql`(select ${cost(rates)} from ${sql.table(CATALOGUE_TABLE)} where ${c('id')} = ${model} ${started} limit 1)`;
}
