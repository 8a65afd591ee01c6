// The ids a purge query names. Weave purges only by id, for safety (weave/trace_server/
// validation.py): `{$expr: {$eq: [{$getField: "id"}, {$literal: <id>}]}}`, an `$or` of such, and
// for costs also `{$expr: {$in: [{$getField: "id"}, [{$literal: <id>}, …]]}}` (what the SDK's
// purge_costs sends). Anything else is a 400, as in Weave.
import { invalidRequest } from '@weft/core';

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PurgeRule {
  /** The error's text: how to name what may be purged. */
  message: string;
  /** `$in` of ids at the top (cost/purge); feedback/purge takes `$eq` and `$or` only. */
  allowIn?: boolean;
}

/** The ids `query` names, or a 400 for any other query. */
export function purgeIds(query: Json, rule: PurgeRule): string[] {
  const fail = (): never => {
    throw invalidRequest(rule.message);
  };
  const isIdField = (field: Json) => isObject(field) && field.$getField === 'id' && Object.keys(field).length === 1;
  const literal = (node: Json): string =>
    isObject(node) && typeof node.$literal === 'string' && Object.keys(node).length === 1 ? node.$literal : fail();
  const idOf = (eq: Json): string => {
    if (!Array.isArray(eq) || eq.length !== 2 || !isIdField(eq[0])) fail();
    return literal((eq as Json[])[1]);
  };

  if (!isObject(query) || Object.keys(query).join() !== '$expr' || !isObject(query.$expr)) fail();
  const expr = (query as { $expr: Record<string, Json> }).$expr;
  const [op, ...more] = Object.keys(expr);
  if (more.length > 0) fail();
  if (op === '$eq') return [idOf(expr.$eq)];
  if (op === '$or' && Array.isArray(expr.$or) && expr.$or.length > 0) {
    return expr.$or.map((item: Json) => (isObject(item) && Object.keys(item).join() === '$eq' ? idOf(item.$eq) : fail()));
  }
  if (op === '$in' && rule.allowIn === true) {
    const args = expr.$in;
    if (!Array.isArray(args) || args.length !== 2 || !isIdField(args[0]) || !Array.isArray(args[1])) fail();
    return ((args as Json[])[1] as Json[]).map(literal);
  }
  return fail();
}
