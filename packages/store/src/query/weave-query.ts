// Weave's query language (`query: {$expr: …}`), compiled to one SQL condition that both databases
// run the same way; the fields a query may name are the resource's (calls/calls-query-fields.ts,
// feedback/feedback-query.ts, costs/cost-fields.ts). Operations: $and, $or, $not, $eq, $gt, $gte, $in, $contains;
// operands: $literal, $getField (a field of the resource) and $convert (double, int, string, bool,
// exists). A comparison takes its type from its literal: a number compares numbers (JSON numbers
// and numeric strings, as Weave's toFloat64OrNull), a string text, a boolean JSON booleans. Time
// fields compare as times: a number literal is Unix seconds, a string an ISO time. What this does
// not cover is refused (400), never ignored.
import { invalidRequest } from '@weft/core';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { jsonPathAsNumber, jsonPathAsText, jsonPathType, textContains, type Database, type Db } from '../db/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the compiler serves any table; its fields name the columns
type Eb = ExpressionBuilder<Database, any>;
type Json = unknown;
export type Kind = 'text' | 'number' | 'bool' | 'time' | 'exists';
/** A compiled operand: a value expression per type it can be read as. */
export interface Value {
  as(kind: Kind): Expression<unknown> | undefined;
  literal?: unknown;
  time?: boolean;
}

interface Compiler {
  db: Db;
  field(name: string): Value;
}

const COMPARE = { $eq: '=', $gt: '>', $gte: '>=' } as const;
const NEGATED = { $gt: '<=', $gte: '<' } as const;
type Operator = '=' | '>' | '>=' | '<' | '<=';

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const queryFail = (what: string): never => {
  throw invalidRequest(`query: ${what}`);
};
const fail = queryFail;

/**
 * The condition of `query` (`{$expr: …}`) over a table whose fields `field` resolves, or undefined
 * without a query. `check` builds it once at once, so a query this does not cover is refused
 * before any answer starts.
 */
export function weaveQueryCondition(
  db: Db,
  query: Json,
  field: (name: string) => Value,
  check: (condition: (eb: Eb) => Expression<SqlBool>) => void,
): ((eb: Eb) => Expression<SqlBool>) | undefined {
  if (query === null || query === undefined) return undefined;
  if (!isObject(query) || Object.keys(query).join() !== '$expr') fail('expected {"$expr": …}');
  const compiler: Compiler = { db, field };
  const condition = (eb: Eb) => operation(compiler, eb, (query as { $expr: Json }).$expr, 0);
  check(condition);
  return condition;
}

/** A text column: compared as text, and tested for null by exists. */
export function textColumn(ref: string): Value {
  const column = sql.ref(ref);
  return { as: (k) => (k === 'text' ? column : k === 'exists' ? sql`(${column} is not null)` : undefined) };
}

/** A time column (fixed-width ISO text): compared as a time. */
export function timeColumn(ref: string): Value {
  const column = sql.ref(ref);
  return { time: true, as: (k) => (k === 'time' ? column : k === 'exists' ? sql`(${column} is not null)` : undefined) };
}

/** A text column holding plain decimals (exact prices): compared as a number. */
export function decimalColumn(ref: string): Value {
  const column = sql.ref(ref);
  // "double precision": a type name both databases know (SQLite reads it as REAL).
  const number = sql`cast(${column} as double precision)`;
  return { as: (k) => (k === 'number' ? number : k === 'exists' ? sql`(${column} is not null)` : undefined) };
}

/** The same text for every row (a field whose value a resource does not vary). */
export function constantText(value: string): Value {
  return { as: (k) => (k === 'text' ? sql.lit(value) : k === 'exists' ? sql.lit(true) : undefined) };
}

/** A dot path into a JSON column: read as text, number, boolean or tested for existence. */
export function jsonPathField(db: Db, column: string, path: string[]): Value {
  const type = jsonPathType(db, column, path);
  return {
    as: (k) =>
      k === 'text'
        ? sql`(case when ${type} = 'string' then ${jsonPathAsText(db, column, path)} end)`
        : k === 'number'
          ? jsonPathAsNumber(db, column, path)
          : k === 'bool'
            ? sql`(case ${type} when 'boolean' then (${jsonPathAsText(db, column, path)} in ('true', '1')) end)`
            : k === 'exists'
              ? sql`(${type} is not null)`
              : undefined,
  };
}

function only(node: Json, where: string): [string, Json] {
  if (!isObject(node) || Object.keys(node).length !== 1) fail(`${where}: expected an object with one operator`);
  return Object.entries(node as Record<string, Json>)[0]!;
}

function operation(q: Compiler, eb: Eb, node: Json, depth: number): Expression<SqlBool> {
  if (depth > 64) fail('nested deeper than 64 operations');
  const [op, args] = only(node, 'an operation');
  const list = (n?: number) => {
    if (!Array.isArray(args) || (n !== undefined && args.length !== n)) fail(`${op} takes ${n ?? 'a list of'} operands`);
    return args as Json[];
  };
  switch (op) {
    case '$and':
    case '$or': {
      const parts = list().map((a) => operation(q, eb, a, depth + 1));
      if (parts.length === 0) return sql<SqlBool>`${op === '$and' ? sql`1 = 1` : sql`1 = 0`}`;
      return op === '$and' ? eb.and(parts) : eb.or(parts);
    }
    case '$not': {
      const inner = list(1)[0];
      return negatedComparison(q, inner, depth + 1) ?? eb.not(operation(q, eb, inner, depth + 1));
    }
    case '$eq':
    case '$gt':
    case '$gte': {
      const [a, b] = list(2).map((x) => operand(q, x, depth + 1)) as [Value, Value];
      return compare(a, b, COMPARE[op]);
    }
    case '$in': {
      const [a, options] = list(2);
      if (!Array.isArray(options)) fail('$in takes [operand, [operands]]');
      const left = operand(q, a, depth + 1);
      const parts = (options as Json[]).map((o) => compare(left, operand(q, o, depth + 1), '='));
      return parts.length === 0 ? sql<SqlBool>`1 = 0` : eb.or(parts);
    }
    case '$contains': {
      if (!isObject(args)) fail('$contains takes {input, substr, case_insensitive}');
      const { input, substr, case_insensitive, ...rest } = args as Record<string, Json>;
      if (Object.keys(rest).length > 0) fail(`$contains: unknown ${Object.keys(rest).join(', ')}`);
      const needle = operand(q, substr, depth + 1).literal;
      if (typeof needle !== 'string') fail('$contains: substr must be a string $literal');
      const haystack = operand(q, input, depth + 1).as('text') ?? fail('$contains: input cannot be read as text');
      return textContains(q.db, haystack, needle as string, { caseInsensitive: case_insensitive === true });
    }
    default:
      return fail(`unknown operation ${op}`);
  }
}

/**
 * `$not` of `$gt`/`$gte` as the opposite comparison (`<=`/`<`), or undefined for anything else.
 * The same in SQL's three-valued logic (NULL when either side is NULL, so the same under any
 * further $not), but a plain comparison can bound an index range and SQLite derives none from
 * NOT (…). Weave's language has no $lt: every "before" and every range's end arrives this way.
 */
function negatedComparison(q: Compiler, node: Json, depth: number): Expression<SqlBool> | undefined {
  if (!isObject(node) || Object.keys(node).length !== 1) return undefined;
  const [op, args] = Object.entries(node)[0]!;
  if ((op !== '$gt' && op !== '$gte') || !Array.isArray(args) || args.length !== 2) return undefined;
  const [a, b] = args.map((x: Json) => operand(q, x, depth + 1)) as [Value, Value];
  return compare(a, b, NEGATED[op]);
}

function operand(q: Compiler, node: Json, depth: number): Value {
  if (depth > 64) fail('nested deeper than 64 operations');
  const [op, arg] = only(node, 'an operand');
  if (op === '$literal') {
    const v = arg;
    const kind: Kind | undefined =
      typeof v === 'string' ? 'text' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : undefined;
    if (kind === undefined && v !== null) fail('$literal must be a string, number, boolean or null');
    // Booleans inline (SQLite binds no booleans; both read TRUE and FALSE), and they also answer
    // an existence test ($convert to exists).
    if (typeof v === 'boolean') return { literal: v, as: (k) => (k === 'bool' || k === 'exists' ? sql.lit(v) : undefined) };
    return { literal: v, as: (k) => (k === kind || (k === 'time' && kind !== undefined) ? sql`${timeOrValue(v, k)}` : undefined) };
  }
  if (op === '$getField') {
    if (typeof arg !== 'string' || arg === '') fail('$getField takes a field name');
    return q.field(arg as string);
  }
  if (op === '$convert') {
    if (!isObject(arg)) fail('$convert takes {input, to}');
    const { input, to } = arg as Record<string, Json>;
    const inner = operand(q, input, depth + 1);
    const kind = ({ double: 'number', int: 'number', string: 'text', exists: 'exists', bool: 'bool' } as const)[to as 'double'];
    if (!kind) fail(`$convert: unknown type ${JSON.stringify(to)}`);
    const expr = inner.as(kind) ?? fail(`$convert: cannot read it as ${String(to)}`);
    return { as: (k) => (k === kind ? expr : undefined) };
  }
  return fail(`unknown operand ${op} (an operation cannot be an operand)`);
}

function timeOrValue(v: Json, kind: Kind): unknown {
  if (kind !== 'time') return v;
  const ms = typeof v === 'number' ? v * 1000 : typeof v === 'string' ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) fail(`${JSON.stringify(v)} is not a time (Unix seconds or an ISO date)`);
  // Stored times are fixed-width ISO text: compared as text, in order.
  return new Date(ms).toISOString();
}

function compare(a: Value, b: Value, op: Operator): Expression<SqlBool> {
  const literal = a.literal !== undefined ? a : b.literal !== undefined ? b : undefined;
  if (literal?.literal === null) {
    if (op !== '=') fail('only $eq compares with null');
    const other = literal === a ? b : a;
    const exists = other.as('exists') ?? fail('cannot test that operand for null');
    return sql<SqlBool>`not ${exists}`;
  }
  const kinds: Kind[] = a.time || b.time ? ['time'] : literal ? kindsOf(literal.literal) : ['number', 'text', 'bool', 'exists'];
  for (const kind of kinds) {
    const [x, y] = [a.as(kind), b.as(kind)];
    if (x && y) return sql<SqlBool>`(${x} ${sql.raw(op)} ${y})`;
  }
  return fail('these operands cannot be compared (use $convert)');
}

function kindsOf(v: Json): Kind[] {
  return typeof v === 'number' ? ['number'] : typeof v === 'boolean' ? ['bool', 'exists'] : ['text'];
}
