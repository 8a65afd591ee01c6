// Dialect helpers for statistics over JSON payloads (feedback/stats), beside dialect-helpers.ts:
// a value at a path of object keys read as Weave's ClickHouse reads it (a JSON number, a JSON
// boolean as 1/0, a JSON string; anything else SQL NULL), a stored datetime's bucket index, and
// a text prefix test.
//
// Unlike jsonPathExtract, every path component is an object key (as ClickHouse's JSONExtract*
// with string arguments): `1` names the key "1", never an array element. Keys reach SQL only as
// bound parameters (PostgreSQL's `-> text` steps; SQLite's JSON-path string, whose keys are quoted).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from './db.ts';
import { isoEpochMs } from './dialect-durations.ts';
import { pgNumericAsDouble } from './dialect-json-paths.ts';

/** A SQLite JSON path of quoted keys, e.g. `$."output"."score"`; only for keys without `"` or `\`. */
function sqliteKeyPath(keys: readonly string[]): string {
  for (const k of keys)
    if ([...k].some((ch) => ch === '"' || ch === '\\' || ch < ' '))
      throw new TypeError(`sqliteKeyPath: unsupported key ${JSON.stringify(k)}`);
  return '$' + keys.map((k) => `."${k}"`).join('');
}

/** PostgreSQL: one `-> text` per key (`#>` would read a digit key as an index into an array). */
function pgAt(column: Expression<unknown>, keys: readonly string[]): RawBuilder<unknown> {
  let expr = sql`${column}`;
  for (const k of keys) expr = sql`(${expr} -> cast(${k} as text))`;
  return expr;
}

/** The value at `keys` as a double when it is a JSON number (beyond the double range: NULL); else SQL NULL. */
export function jsonKeysNumber(dialect: Dialect, column: Expression<unknown>, keys: readonly string[]): RawBuilder<number | null> {
  if (dialect === 'postgres') {
    const x = pgAt(column, keys);
    return pgNumericAsDouble(sql`case when jsonb_typeof(${x}) = 'number' then cast(${x} #>> '{}' as numeric) end`);
  }
  const p = sqliteKeyPath(keys);
  // SQLite reads a number past the double range (1e400) as Infinity: NULL, as in PostgreSQL.
  return sql<number | null>`(select case when t in ('integer', 'real') and abs(r) <= 1.7976931348623157e308 then r end
    from (select json_type(${column}, ${p}) as t, cast(${column} ->> ${p} as real) as r))`;
}

/** 1.0 for JSON true, 0.0 for JSON false, else SQL NULL (a double, so avg and sum stay doubles in PostgreSQL). */
export function jsonKeysBoolean(dialect: Dialect, column: Expression<unknown>, keys: readonly string[]): RawBuilder<number | null> {
  if (dialect === 'postgres') {
    const x = pgAt(column, keys);
    return sql<number | null>`(case jsonb_typeof(${x}) when 'boolean' then (case when ${x} = 'true'::jsonb
      then cast(1 as double precision) else cast(0 as double precision) end) end)`;
  }
  const p = sqliteKeyPath(keys);
  return sql<number | null>`(case json_type(${column}, ${p}) when 'true' then 1.0 when 'false' then 0.0 end)`;
}

/** The string when the value is a JSON string, else SQL NULL. */
export function jsonKeysString(dialect: Dialect, column: Expression<unknown>, keys: readonly string[]): RawBuilder<string | null> {
  if (dialect === 'postgres') {
    const x = pgAt(column, keys);
    return sql<string | null>`(case when jsonb_typeof(${x}) = 'string' then ${x} #>> '{}' end)`;
  }
  const p = sqliteKeyPath(keys);
  return sql<string | null>`(case when json_type(${column}, ${p}) = 'text' then ${column} ->> ${p} end)`;
}

/**
 * Which bucket of `widthMs` milliseconds the stored datetime `iso` falls in, counting from the
 * bucket that starts at `originMs` (ms since the epoch): an integer, in both databases (integer
 * division: better-sqlite3 binds a number as a double). `iso` must not be before `originMs`
 * (integer division truncates, which is the floor only for non-negative values).
 */
export function bucketIndex(dialect: Dialect, iso: Expression<unknown>, originMs: number, widthMs: number): RawBuilder<number> {
  return sql<number>`((${isoEpochMs(dialect, iso)} - cast(${originMs} as bigint)) / cast(${widthMs} as bigint))`;
}

/** `text` starts with `prefix` (code points, byte-exact in both databases; not LIKE, whose escaping and case differ). */
export function textStartsWith(dialect: Dialect, text: Expression<unknown>, prefix: string): RawBuilder<SqlBool> {
  const length = [...prefix].length;
  return dialect === 'postgres'
    ? sql<SqlBool>`(substr(${text}, 1, cast(${length} as integer)) = cast(${prefix} as text))`
    : sql<SqlBool>`(substr(${text}, 1, ${length}) = ${prefix})`;
}

/**
 * What follows the last `/` of `text` (all of it without one; '' for NULL), as ClickHouse's
 * `splitByChar('/', x)[-1]`. The same SQL in both databases: rtrim by every character but `/`
 * strips the last segment, whose length is then known.
 */
export function lastPathSegment(text: Expression<unknown>): RawBuilder<string> {
  const t = sql`coalesce(${text}, '')`;
  return sql<string>`substr(${t}, length(rtrim(${t}, replace(${t}, '/', ''))) + 1)`;
}

/** `text` without its last `/` and what follows ('' when it has no `/`). */
export function withoutLastPathSegment(text: Expression<unknown>): RawBuilder<string> {
  const t = sql`coalesce(${text}, '')`;
  const head = sql`rtrim(${t}, replace(${t}, '/', ''))`;
  return sql<string>`(case when length(${head}) > 0 then substr(${head}, 1, length(${head}) - 1) else '' end)`;
}

/** A ref's object id, as Weave's `_ref_object_id_sql`: its last path segment before any `:` ('' for NULL). */
export function refObjectId(dialect: Dialect, text: Expression<unknown>): RawBuilder<string> {
  const last = lastPathSegment(text);
  if (dialect === 'postgres') return sql<string>`split_part(${last}, ':', 1)`;
  return sql<string>`(case when instr(${last}, ':') > 0 then substr(${last}, 1, instr(${last}, ':') - 1) else ${last} end)`;
}
