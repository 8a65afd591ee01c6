// The few places where SQLite and PostgreSQL need different SQL. Each helper takes the dialect (or
// anything with a `dialect`, such as a Db) and returns a Kysely `sql` fragment or a value, so the
// store keeps one query-building code path for both databases.
//
// JSON paths are lists of keys. A component of 1–9 ASCII digits indexes an array (and matches no
// object key), as in Weave's ClickHouse queries. Path components only ever reach SQL as bound
// parameters (PostgreSQL) or inside a bound JSON-path string (SQLite), never as SQL text.
//
// Differences that need no helper but do need care: NULLs sort first in SQLite and last in
// PostgreSQL on ascending order, so always say nullsFirst()/nullsLast(); and SQLite's LIKE ignores
// ASCII case (use textContains). Upserts (onConflict … doNothing / doUpdateSet with `excluded`),
// RETURNING and transactions work the same through Kysely in both.
import { invalidRequest } from '@weft/core';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, Dialect } from './db.ts';
import type { StoredJson, StoredJsonText } from './schema.ts';

export type DialectSource = Dialect | Pick<Db, 'dialect'>;
/**
 * A column name (`'val'`, `'objects.val'`) or any SQL expression holding a JSON value, or a
 * column of JSON text as written (asWritten: PostgreSQL json, the table rows).
 */
export type JsonSource = string | Expression<unknown> | AsWrittenColumn;
/** A column of JSON kept as written (StoredJsonText): PostgreSQL json rather than jsonb. */
export interface AsWrittenColumn {
  readonly asWritten: string;
}
export const asWritten = (column: string): AsWrittenColumn => ({ asWritten: column });
export type JsonTypeName = 'null' | 'number' | 'string' | 'boolean' | 'object' | 'array';

export const dialectOf = (d: DialectSource): Dialect => (typeof d === 'string' ? d : d.dialect);
const isAsWritten = (column: JsonSource): column is AsWrittenColumn => typeof column === 'object' && 'asWritten' in column;
const source = (column: JsonSource): Expression<unknown> =>
  typeof column === 'string' ? sql.ref(column) : isAsWritten(column) ? sql.ref(column.asWritten) : column;

// ---------------------------------------------------------------------------------------------
// Writing and reading JSON values

/**
 * Binds a JS value for a JSON column (JSON.stringify semantics: NaN becomes null, undefined
 * object members are dropped). Throws for undefined, functions and symbols, which have no JSON.
 */
export function jsonParam(d: DialectSource, value: unknown): RawBuilder<StoredJson> {
  return jsonText(d, jsonOf(value));
}

/** A JS value's JSON text, as jsonParam binds it; throws for undefined, functions and symbols. */
export function jsonOf(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError(`jsonParam: a ${typeof value} has no JSON representation`);
  return text;
}

// A JSON `\u0000` escape not itself preceded by an odd number of backslashes.
const NUL_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u0000/;

/**
 * PostgreSQL's jsonb cannot hold U+0000 (nor can its json be read by ->> then); refuse it in both
 * databases so they behave alike. jsonText does it; a statement compiled once with jsonTextSql in
 * a value's place does it on each value it binds there.
 */
export function refuseNul(text: string): void {
  if (text.includes('\\u0000') && NUL_ESCAPE.test(text)) throw invalidRequest('A string contains U+0000, which cannot be stored');
}

/**
 * Binds JSON that is already text. Malformed text is rejected by the column in both databases
 * (jsonb parsing; a json_valid CHECK in SQLite). PostgreSQL's jsonb also rejects \u0000 in
 * strings and normalises the value: key order, duplicate keys and number spelling (1e2 → 100).
 */
export function jsonText(d: DialectSource, text: string): RawBuilder<StoredJson> {
  refuseNul(text);
  return jsonTextSql(d, text);
}

/** jsonText without the check of U+0000: for a value's marker in a statement compiled once (see refuseNul). */
export function jsonTextSql(d: DialectSource, text: string): RawBuilder<StoredJson> {
  return dialectOf(d) === 'postgres' ? sql<StoredJson>`cast(${text} as jsonb)` : sql<StoredJson>`${text}`;
}

/**
 * Binds JSON text for a column that keeps it as written (StoredJsonText: PostgreSQL json, whose
 * input only checks the syntax). jsonb would build its binary form, a numeric for every number:
 * most of what PostgreSQL spent on a trajectory log (BENCHMARKS.md, scenario 4). U+0000 is
 * refused as jsonText refuses it, so the databases keep agreeing.
 */
export function jsonTextAsWritten(d: DialectSource, text: string): RawBuilder<StoredJsonText> {
  refuseNul(text);
  return dialectOf(d) === 'postgres' ? sql<StoredJsonText>`cast(${text} as json)` : sql<StoredJsonText>`${text}`;
}

/** A JSON column (or jsonPathExtract result) as a JS value: pg parses jsonb, SQLite gives text. SQL NULL → null. */
export function readJson(d: DialectSource, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (dialectOf(d) === 'postgres') return value;
  if (typeof value !== 'string') throw new TypeError(`readJson: expected JSON text from SQLite, got a ${typeof value}`);
  return JSON.parse(value);
}

// ---------------------------------------------------------------------------------------------
// JSON paths

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
const PG_MINIFY_RE = '("(?:[^"\\\\]|\\\\.)*")|([,:]) ';

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
// Text

/**
 * `needle` occurs in `haystack` (a WHERE condition; Weave's `$contains`). Not LIKE: SQLite's LIKE
 * ignores ASCII case and neither database agrees on escaping. With `caseInsensitive`, only ASCII
 * letters are folded, in both databases (SQLite's lower() knows no other).
 */
export function textContains(
  d: DialectSource,
  haystack: Expression<unknown>,
  needle: string,
  opts: { caseInsensitive?: boolean } = {},
): RawBuilder<SqlBool> {
  if (dialectOf(d) === 'postgres') {
    return opts.caseInsensitive
      ? sql<SqlBool>`(strpos(lower(${haystack} collate "C"), lower(${needle} collate "C")) > 0)`
      : sql<SqlBool>`(strpos(${haystack}, ${needle}) > 0)`;
  }
  return opts.caseInsensitive
    ? sql<SqlBool>`(instr(lower(${haystack}), lower(${needle})) > 0)`
    : sql<SqlBool>`(instr(${haystack}, ${needle}) > 0)`;
}

/**
 * `text` compared and sorted code point by code point (byte-wise in UTF-8), as JS compares ASCII
 * text: PostgreSQL under collation "C" rather than the database's; SQLite's default (BINARY) already does.
 */
export function bytewiseText(d: DialectSource, text: Expression<unknown>): Expression<unknown> {
  return dialectOf(d) === 'postgres' ? sql`(${text} collate "C")` : text;
}

// ---------------------------------------------------------------------------------------------
// Batching

/**
 * The most bound parameters one statement may carry (SQLite 32766, PostgreSQL 65535): split
 * multi-row inserts so rows × parameters-per-row stays within it.
 */
export function maxBindParameters(d: DialectSource): number {
  return dialectOf(d) === 'postgres' ? 65_535 : 32_766;
}

// ---------------------------------------------------------------------------------------------
// Datetimes: created in JS, so both databases store the same text.

/** Now, as stored: `2025-01-01T00:00:00.000Z`. */
export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * A datetime in the stored form (UTC, milliseconds, fixed width). A string without an offset is
 * taken as UTC, not server-local time; sub-millisecond digits are dropped. Throws when invalid or
 * outside years 0000–9999 (the fixed width would break text order).
 */
export function toIsoDatetime(value: Date | string | number): string {
  let input = value;
  if (typeof input === 'string' && /[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(input)) input += 'Z';
  const date = input instanceof Date ? input : new Date(input);
  const iso = Number.isNaN(date.getTime()) ? '' : date.toISOString();
  if (iso.length !== 24) throw new RangeError(`Not a storable datetime: ${String(value)}`);
  return iso;
}

/**
 * `iso` (a stored datetime) plus `days` whole days, as stored; SQL NULL when `days` is NULL or
 * the result would pass year 9999 (no fixed-width form: SQLite's strftime gives NULL there, and
 * PostgreSQL is made to agree). Days of 24 hours, whatever the session's time zone.
 */
export function isoPlusDays(d: DialectSource, iso: Expression<unknown>, days: Expression<unknown>): RawBuilder<string | null> {
  if (dialectOf(d) === 'postgres') {
    const t = sql`((cast(${iso} as timestamptz) at time zone 'UTC') + ${days} * interval '1 day')`;
    return sql<string | null>`(case when ${t} < timestamp '10000-01-01' then to_char(${t}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end)`;
  }
  return sql<string | null>`strftime('%Y-%m-%dT%H:%M:%fZ', ${iso}, '+' || ${days} || ' days')`;
}

/**
 * Byte length of a JSON column's compact text (PostgreSQL minified with PG_MINIFY_RE, so it
 * measures the text SQLite stores); 0 for SQL NULL. Known difference: jsonb respells some
 * numbers (1e2 → 100).
 */
export function jsonByteLength(d: DialectSource, column: Expression<unknown>): RawBuilder<number> {
  return dialectOf(d) === 'postgres'
    ? sql<number>`coalesce(octet_length(regexp_replace(cast(${column} as text), ${PG_MINIFY_RE}, ${'\\1\\2'}, 'g')), 0)`
    : sql<number>`coalesce(length(cast(${column} as blob)), 0)`;
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
