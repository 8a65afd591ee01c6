// Weave's query language for calls (`query: {$expr: …}` of calls/stream_query and
// calls/query_stats), compiled to one SQL condition that both databases run the same way.
// Operations: $and, $or, $not, $eq, $gt, $gte, $in, $contains; operands: $literal, $getField
// (a column, `summary.weave.status`, or a dot path into inputs, output, attributes, summary) and
// $convert (double, string, exists). A comparison takes its type from its literal: a number
// compares numbers (JSON numbers and numeric strings, as Weave's toFloat64OrNull), a string text,
// a boolean JSON booleans. `started_at`/`ended_at` compare as times: a number literal is Unix
// seconds, a string an ISO time. What this does not cover is refused (400), never ignored.
import { invalidRequest } from '@weft/core';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { jsonPathAsNumber, jsonPathAsText, jsonPathType, textContains, type Database, type Db } from '../db/index.ts';

type Eb = ExpressionBuilder<Database, 'calls'>;
type Json = unknown;
type Kind = 'text' | 'number' | 'bool' | 'time' | 'exists';
/** A compiled operand: a value expression per type it can be read as. */
interface Value {
  as(kind: Kind): Expression<unknown> | undefined;
  literal?: unknown;
  time?: boolean;
}

const TEXT_COLUMNS: Record<string, string> = {
  id: 'id',
  trace_id: 'trace_id',
  parent_id: 'parent_id',
  op_name: 'op_name',
  display_name: 'display_name',
  thread_id: 'thread_id',
  turn_id: 'turn_id',
  exception: 'exception',
  wb_user_id: 'svc_user_id',
  svc_user_id: 'svc_user_id',
  wb_run_id: 'svc_run_id',
  svc_run_id: 'svc_run_id',
};
const JSON_ROOTS = new Set(['inputs', 'output', 'attributes', 'summary']);
const COMPARE = { $eq: '=', $gt: '>', $gte: '>=' } as const;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (what: string): never => {
  throw invalidRequest(`query: ${what}`);
};

/** The condition of `query` (`{$expr: …}`), or undefined without one. */
export function callsQueryCondition(db: Db, query: Json): ((eb: Eb) => Expression<SqlBool>) | undefined {
  if (query === null || query === undefined) return undefined;
  if (!isObject(query) || Object.keys(query).join() !== '$expr') fail('expected {"$expr": …}');
  const condition = (eb: Eb) => operation(db, eb, (query as { $expr: Json }).$expr, 0);
  // Built once now, so a query this does not cover is refused before any answer starts.
  db.kysely.selectFrom('calls').select('id').where(condition).compile();
  return condition;
}

function only(node: Json, where: string): [string, Json] {
  if (!isObject(node) || Object.keys(node).length !== 1) fail(`${where}: expected an object with one operator`);
  return Object.entries(node as Record<string, Json>)[0]!;
}

function operation(db: Db, eb: Eb, node: Json, depth: number): Expression<SqlBool> {
  if (depth > 64) fail('nested deeper than 64 operations');
  const [op, args] = only(node, 'an operation');
  const list = (n?: number) => {
    if (!Array.isArray(args) || (n !== undefined && args.length !== n)) fail(`${op} takes ${n ?? 'a list of'} operands`);
    return args as Json[];
  };
  switch (op) {
    case '$and':
    case '$or': {
      const parts = list().map((a) => operation(db, eb, a, depth + 1));
      if (parts.length === 0) return sql<SqlBool>`${op === '$and' ? sql`1 = 1` : sql`1 = 0`}`;
      return op === '$and' ? eb.and(parts) : eb.or(parts);
    }
    case '$not':
      return eb.not(operation(db, eb, list(1)[0], depth + 1));
    case '$eq':
    case '$gt':
    case '$gte': {
      const [a, b] = list(2).map((x) => operand(db, x, depth + 1)) as [Value, Value];
      return compare(a, b, COMPARE[op]);
    }
    case '$in': {
      const [a, options] = list(2);
      if (!Array.isArray(options)) fail('$in takes [operand, [operands]]');
      const left = operand(db, a, depth + 1);
      const parts = (options as Json[]).map((o) => compare(left, operand(db, o, depth + 1), '='));
      return parts.length === 0 ? sql<SqlBool>`1 = 0` : eb.or(parts);
    }
    case '$contains': {
      if (!isObject(args)) fail('$contains takes {input, substr, case_insensitive}');
      const { input, substr, case_insensitive, ...rest } = args as Record<string, Json>;
      if (Object.keys(rest).length > 0) fail(`$contains: unknown ${Object.keys(rest).join(', ')}`);
      const needle = operand(db, substr, depth + 1).literal;
      if (typeof needle !== 'string') fail('$contains: substr must be a string $literal');
      const haystack = operand(db, input, depth + 1).as('text') ?? fail('$contains: input cannot be read as text');
      return textContains(db, haystack, needle as string, { caseInsensitive: case_insensitive === true });
    }
    default:
      return fail(`unknown operation ${op}`);
  }
}

function operand(db: Db, node: Json, depth: number): Value {
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
    return field(db, arg as string);
  }
  if (op === '$convert') {
    if (!isObject(arg)) fail('$convert takes {input, to}');
    const { input, to } = arg as Record<string, Json>;
    const inner = operand(db, input, depth + 1);
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

function field(db: Db, name: string): Value {
  if (name === 'started_at' || name === 'ended_at') {
    const ref = sql.ref(`calls.${name}`);
    return { time: true, as: (k) => (k === 'time' ? ref : k === 'exists' ? sql`(${ref} is not null)` : undefined) };
  }
  const column = TEXT_COLUMNS[name];
  if (column) {
    const ref = sql.ref(`calls.${column}`);
    return { as: (k) => (k === 'text' ? ref : k === 'exists' ? sql`(${ref} is not null)` : undefined) };
  }
  if (name === 'summary.weave.status') {
    // As derive-summary.ts's statusOf, in SQL.
    const errors = jsonPathAsNumber(db, 'calls.summary', ['status_counts', 'error']);
    const status = sql`(case when calls.exception is not null and calls.exception <> '' then 'error'
      when calls.ended_at is null then 'running' when coalesce(${errors}, 0) > 0 then 'descendant_error' else 'success' end)`;
    return { as: (k) => (k === 'text' ? status : undefined) };
  }
  const [root = '', ...path] = name.split('.');
  if (!JSON_ROOTS.has(root) || path.length === 0 || path.some((p) => p === '')) fail(`unknown field ${JSON.stringify(name)}`);
  if (root === 'summary' && path[0] === 'weave') fail(`${name} is derived at read time; only summary.weave.status can be queried`);
  const json = `calls.${root}`;
  const type = jsonPathType(db, json, path);
  return {
    as: (k) =>
      k === 'text'
        ? sql`(case when ${type} = 'string' then ${jsonPathAsText(db, json, path)} end)`
        : k === 'number'
          ? jsonPathAsNumber(db, json, path)
          : k === 'bool'
            ? sql`(case ${type} when 'boolean' then (${jsonPathAsText(db, json, path)} in ('true', '1')) end)`
            : k === 'exists'
              ? sql`(${type} is not null)`
              : undefined,
  };
}

function compare(a: Value, b: Value, op: '=' | '>' | '>='): Expression<SqlBool> {
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
