// cost/create: a project's new price of each model named, as Weave's cost_create writes them
// (pricing level `project`, provider `default`, effective now, unless the request says). Prices
// are read from the body's number lexemes (x-weft-body: lossless) and kept as exact plain
// decimals: `5e-06` is stored "0.000005", never the float nearest to it.
import { decimalFromNumberLexeme, formatDecimal, invalidField, JsonNumber, uuidv7, type JsonNode } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, toIsoDatetime, type Db, type NewRow } from '../db/index.ts';
import type { LosslessContext } from '../store.ts';
import { childNode } from '../objects/value-encoding.ts';

/** Longer than any double written out (5e-324 is 324 places): refused rather than stored. */
const MAX_PRICE_LENGTH = 400;

export async function costCreate(db: Db, req: T.CostCreateReq, ctx: LosslessContext): Promise<T.CostCreateRes> {
  const created_at = nowIso();
  const costsNode = childNode(ctx.source, 'costs');
  const rows: NewRow<'llm_token_prices'>[] = Object.entries(req.costs).map(([llm_id, cost]) => {
    const node = childNode(costsNode, llm_id);
    const at = (field: string) => ['body', 'costs', llm_id, field];
    const price = (field: keyof T.CostCreateInput & `${string}_cost`) => exactPrice(cost[field], childNode(node, field), at(field));
    return {
      project_id: req.project_id,
      id: uuidv7(),
      llm_id,
      provider_id: cost.provider_id ?? 'default',
      effective_date: cost.effective_date == null ? created_at : datetime(cost.effective_date, at('effective_date')),
      prompt_token_cost: price('prompt_token_cost') ?? '0',
      completion_token_cost: price('completion_token_cost') ?? '0',
      cache_read_input_token_cost: price('cache_read_input_token_cost'),
      cache_creation_input_token_cost: price('cache_creation_input_token_cost'),
      prompt_token_cost_unit: cost.prompt_token_cost_unit ?? 'USD',
      completion_token_cost_unit: cost.completion_token_cost_unit ?? 'USD',
      svc_user_id: ctx.user,
      created_at,
    };
  });
  // One statement: all the prices or none (at most 1,000 models by the spec: 13,000 parameters).
  if (rows.length > 0) await db.kysely.insertInto('llm_token_prices').values(rows).execute();
  return { ids: rows.map((r) => [r.id, r.llm_id]) };
}

/**
 * The exact plain decimal of a price as the client wrote it: from its lexeme when the body was
 * read losslessly, else (a direct store user's JS number) from the shortest text of the number.
 */
function exactPrice(value: number | null | undefined, node: JsonNode | undefined, loc: string[]): string | null {
  if (value == null) return null;
  const lexeme = node instanceof JsonNumber ? node.lexeme : String(value);
  let text: string;
  try {
    text = formatDecimal(decimalFromNumberLexeme(lexeme));
  } catch {
    throw invalidField(loc, `${lexeme} is not a finite price`, 'finite_number');
  }
  if (text.startsWith('-')) throw invalidField(loc, 'Input should be greater than or equal to 0', 'greater_than_equal');
  if (text.length > MAX_PRICE_LENGTH) throw invalidField(loc, `a price of at most ${MAX_PRICE_LENGTH} digits`, 'value_error');
  return text;
}

/** As pydantic reads a datetime: with an offset, or without one (UTC, as Weave stores it). */
function datetime(value: string, loc: string[]): string {
  try {
    return toIsoDatetime(value);
  } catch {
    throw invalidField(loc, `Input should be a valid datetime: ${JSON.stringify(value)}`, 'datetime_parsing');
  }
}
