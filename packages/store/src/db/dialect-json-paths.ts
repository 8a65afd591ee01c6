// Dialect helpers for JSON paths (beside dialect-helpers.ts, which holds the rest). Paths are
// lists of keys. A component of 1–9 ASCII digits indexes an array (and matches no object key), as
// in Weave's ClickHouse queries. Path components only ever reach SQL as bound parameters
// (PostgreSQL) or inside a bound JSON-path string (SQLite), never as SQL text.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import {
  dialectOf,
  isAsWritten,
  source,
  type AsWrittenColumn,
  type DialectSource,
  type JsonSource,
  type JsonTypeName,
} from './dialect-source.ts';
import type { StoredJson, StoredJsonText } from './schema.ts';

const ARRAY_INDEX = /^[0-9]{1,9}$/;

/** The value at `path` as JSON (jsonb / JSON text); SQL NULL when missing. Read it with readJson. */
export function jsonPathExtract(d: DialectSource, column: JsonSource, path: readonly string[]): RawBuilder<StoredJson | null> {
  return dialectOf(d) === 'postgres' ? pgExtract(column, path) : sql<StoredJson | null>`(${source(column)} -> ${sqlitePath(path)})`;
}

/** 'null' | 'number' | 'string' | 'boolean' | 'object' | 'array'; SQL NULL when missing. */
export function jsonPathType(d: DialectSource, column: JsonSource, path: readonly string[]): RawBuilder<JsonTypeName | null> {
  if (dialectOf(d) === 'postgres') return sql<JsonTypeName | null>`jsonb_typeof(${pgExtract(column, path)})`;
  return sql<JsonTypeName | null>`(case json_type(${source(column)}, ${sqlitePath(path)})
    when 'integer' then 'number' when 'real' then 'number'
    when 'true' then 'boolean' when 'false' then 'boolean'
    when 'text' then 'string' when 'null' then 'null'
    when 'array' then 'array' when 'object' then 'object' end)`;
}

// ClickHouse toFloat64OrNull semantics for strings: the whole string must be a decimal number.
// Optional sign, digits with an optional point (or a point and digits), optional exponent of at
// most 4 digits; at most 1000 characters (both limits keep PostgreSQL's numeric parser in range).
// No whitespace, hex, inf or nan. The SQLite branch encodes the same grammar with GLOB patterns.
const NUMBER_STRING_RE = '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,4})?$';
// Past the largest double → NULL; below half the smallest denormal → 0 (as IEEE rounding would):
// PostgreSQL's numeric → double precision cast would fail there instead.
const PG_DOUBLE_MAX = sql.raw('1.7976931348623158e308');
const PG_DOUBLE_ZERO_BELOW = sql.raw('2.4703282292062328e-324');

/** PostgreSQL: a numeric (or NULL) as a double, rounded as IEEE would round it rather than failing. */
export function pgNumericAsDouble(numeric: RawBuilder<unknown>): RawBuilder<number | null> {
  return sql<number | null>`(select case
      when n is null then null
      when abs(n) > ${PG_DOUBLE_MAX} then null
      when abs(n) < ${PG_DOUBLE_ZERO_BELOW} then cast(0 as double precision)
      else cast(n as double precision) end
    from (select ${numeric} as n) as parsed)`;
}

/**
 * A double when the value is a JSON number, or a string that is entirely a decimal number ("10",
 * "-1.5e3", ".5"; not "10abc", " 10", "0x10", "inf"); else SQL NULL (booleans, null, objects,
 * arrays, missing). Magnitudes beyond the double range give NULL.
 */
export function jsonPathAsNumber(d: DialectSource, column: JsonSource, path: readonly string[]): RawBuilder<number | null> {
  if (dialectOf(d) === 'postgres') {
    const x = pgExtract(column, path);
    return pgNumericAsDouble(sql`case
        when jsonb_typeof(${x}) = 'number' then cast(${x} as numeric)
        when jsonb_typeof(${x}) = 'string' and length(${x} #>> '{}') <= 1000 and (${x} #>> '{}') ~ ${NUMBER_STRING_RE}
          then cast(${x} #>> '{}' as numeric)
        end`);
  }
  const col = source(column);
  const p = sqlitePath(path);
  // u: the text lower-cased (so 'E' is 'e'); w: u with an exponent's sign replaced by '#', so any
  // remaining sign must be the leading one. Everything after the first 'e' (and '#') must be 1–4
  // digits, which also excludes a second 'e' or a point in the exponent.
  const exponent = sql`ltrim(substr(w, instr(w, 'e') + 1), '#')`;
  return sql<number | null>`(select case
      when (t in ('integer', 'real') or (t = 'text'
          and length(u) <= 1000
          and u not glob '*[^0-9e.+-]*'
          and u not glob '*.*.*'
          and w not glob '?*[+-]*'
          and (u glob '*[0-9]*e*' or (u not glob '*e*' and u glob '*[0-9]*'))
          and (u not glob '*e*' or (length(${exponent}) between 1 and 4 and ${exponent} not glob '*[^0-9]*'))))
        and abs(r) <= 1.7976931348623157e308
      then (case when r = 0 then 0.0 else r end)
      end
    from (select t, u, r, replace(replace(u, 'e+', 'e#'), 'e-', 'e#') as w
      from (select json_type(${col}, ${p}) as t, lower(${col} ->> ${p}) as u, cast(${col} ->> ${p} as real) as r)))`;
}

// Drops the blanks jsonb's text output puts after ',' and ':' outside strings.
export const PG_MINIFY_RE = '("(?:[^"\\\\]|\\\\.)*")|([,:]) ';

/**
 * The value as text: strings unquoted, numbers as their JSON text, booleans `true`/`false`,
 * objects and arrays as minified JSON; SQL NULL for JSON null and missing. Compares and sorts
 * byte-wise in both databases. On JSON as written (asWritten) both read the text as written: keys
 * in the order sent, numbers as spelt. Known difference elsewhere: PostgreSQL's jsonb stores
 * object keys sorted (by length, then bytes) and respells numbers (1e2 → 100).
 */
export function jsonPathAsText(d: DialectSource, column: JsonSource, path: readonly string[]): RawBuilder<string | null> {
  if (dialectOf(d) === 'postgres') {
    const asText = isAsWritten(column);
    const x = asText ? pgExtractAsWritten(column, path) : pgExtract(column, path);
    // jsonb's text, and json values stored before migrations 0012 and 0021 (jsonb's text then),
    // have a blank after each ',' and ':'.
    const minified = sql`regexp_replace(cast(${x} as text), ${PG_MINIFY_RE}, ${'\\1\\2'}, 'g')`;
    return sql<string | null>`((case ${sql.raw(asText ? 'json_typeof' : 'jsonb_typeof')}(${x})
      when 'object' then ${minified} when 'array' then ${minified}
      else ${x} #>> '{}' end) collate "C")`;
  }
  const col = source(column);
  const p = sqlitePath(path);
  return sql<string | null>`(case json_type(${col}, ${p})
    when 'text' then ${col} ->> ${p} when 'null' then null else ${col} -> ${p} end)`;
}

/**
 * PostgreSQL: one `->` per component, with the argument's type stating key or index. On a column
 * of JSON as written (json), the first step reads the text and its result becomes jsonb, so the
 * rest, and every caller, works on jsonb alone.
 */
function pgExtract(column: JsonSource, path: readonly string[]): RawBuilder<StoredJson | null> {
  let expr: Expression<unknown> = source(column);
  let json = isAsWritten(column);
  if (json && path.length === 0) return sql<StoredJson | null>`cast(${expr} as jsonb)`;
  for (const part of path) {
    const step = pgStep(expr, part, json ? 'json_typeof' : 'jsonb_typeof');
    expr = json ? sql`cast(${step} as jsonb)` : step;
    json = false;
  }
  return sql<StoredJson | null>`${expr}`;
}

/** PostgreSQL: the value at `path` of JSON as written, as json: its text as written. */
export function pgExtractAsWritten(column: AsWrittenColumn, path: readonly string[]): RawBuilder<StoredJsonText | null> {
  let expr: Expression<unknown> = source(column);
  for (const part of path) expr = pgStep(expr, part, 'json_typeof');
  return sql<StoredJsonText | null>`${expr}`;
}

// `jsonb -> int` treats a scalar as a one-element array ('"s"'::jsonb -> 0 is "s"); SQLite says
// missing there, so index only into real arrays.
function pgStep(expr: Expression<unknown>, part: string, typeOf: 'json_typeof' | 'jsonb_typeof'): RawBuilder<unknown> {
  return ARRAY_INDEX.test(part)
    ? sql`(case when ${sql.raw(typeOf)}(${expr}) = 'array' then ${expr} -> cast(${Number(part)} as integer) end)`
    : sql`(${expr} -> cast(${part} as text))`;
}

/** SQLite: a JSON path string such as `$."inputs"[0]."a.b"`, bound as one parameter. */
export function sqlitePath(path: readonly string[]): string {
  let out = '$';
  for (const part of path) out += ARRAY_INDEX.test(part) ? `[${Number(part)}]` : `."${escapeSqliteLabel(part)}"`;
  return out;
}

// A quoted label ends at the first '"' (SQLite has no escape for it there), but SQLite decodes
// JSON escapes before comparing labels with keys: so '"' is written \u0022.
function escapeSqliteLabel(key: string): string {
  let out = '';
  for (const ch of key) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\u0022';
    else if (ch === '\\') out += '\\\\';
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Every string in a JSON value

/**
 * Every string value inside a JSON column, at any depth (object keys not included), for a
 * query's FROM list after the table that holds `column`: `from calls c, ${s.from} where ${s.isString}`
 * selecting `${s.value}`. SQLite walks the text with json_tree; PostgreSQL with jsonb_path_query's
 * recursive `$.**`. A SQL NULL column gives no rows.
 */
export function jsonStrings(
  d: DialectSource,
  column: JsonSource,
): { from: RawBuilder<unknown>; value: RawBuilder<string>; isString: RawBuilder<SqlBool> } {
  if (dialectOf(d) === 'postgres') {
    return {
      from: sql`lateral jsonb_path_query(${pgExtract(column, [])}, 'strict $.**') as js(j)`,
      value: sql<string>`(js.j #>> '{}')`,
      isString: sql<SqlBool>`(jsonb_typeof(js.j) = 'string')`,
    };
  }
  return { from: sql`json_tree(${source(column)}) as js`, value: sql<string>`js.atom`, isString: sql<SqlBool>`(js.type = 'text')` };
}
