// Dialect helpers for the members of a JSON object (beside dialect-helpers.ts, which holds the
// rest): one row per member of an object inside a JSON column, and a member's number as Weave's
// ClickHouse reads it (toFloat64OrNull of the raw JSON: a JSON number, nothing else), whether a
// member has a value at a path, and a small JSON table bound as one parameter.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from './db.ts';

/**
 * A FROM item `<alias>(key, value)` over the members of the object at `column -> key`: no rows when
 * that is missing or not an object. Both databases let a function in FROM read the columns of
 * the FROM items before it (PostgreSQL's LATERAL is implied for functions). `value` is the
 * member as JSON (jsonb; SQLite: JSON text for a container, the plain value for a scalar).
 */
export function jsonObjectMembers(dialect: Dialect, column: string, key: string, alias: string): RawBuilder<unknown> {
  const col = sql.ref(column);
  return dialect === 'postgres'
    ? sql`jsonb_each(case when jsonb_typeof(${col} -> ${key}) = 'object' then ${col} -> ${key} end) as ${sql.id(alias)}`
    : sql`json_each(case when json_type(${col}, ${'$.' + key}) = 'object' then json_extract(${col}, ${'$.' + key}) end) as ${sql.id(alias)}`;
}

/**
 * The number at `path` (object keys) inside a member given by jsonObjectMembers, as a double;
 * SQL NULL when the member is not an object, the path is missing, or its value is not a JSON
 * number (strings included, as ClickHouse's toFloat64OrNull of the raw JSON gives NULL for them)
 * or is beyond the double range.
 */
export function memberNumber(dialect: Dialect, alias: string, path: readonly string[]): RawBuilder<number | null> {
  const value = sql.ref(`${alias}.value`);
  if (dialect === 'postgres') {
    const x = sql`(${value} #> cast(${`{${path.join(',')}}`} as text[]))`;
    return sql<number | null>`(case when jsonb_typeof(${x}) = 'number' and abs(cast(${x} as numeric)) <= 1.7976931348623157e308
      then cast(cast(${x} as numeric) as double precision) end)`;
  }
  const p = '$.' + path.join('.');
  return sql<number | null>`(case when ${sql.ref(`${alias}.type`)} = 'object' and json_type(${value}, ${p}) in ('integer', 'real')
      and abs(json_extract(${value}, ${p})) <= 1.7976931348623157e308
    then cast(json_extract(${value}, ${p}) as real) end)`;
}

/**
 * True when a member given by jsonObjectMembers is an object with a value at `path` other than
 * JSON null (what JS's `?? ` treats as present). SQLite's json_type fails on a scalar member's
 * plain text, hence the guard on the member's own type first.
 */
export function memberPresent(dialect: Dialect, alias: string, path: readonly string[]): RawBuilder<SqlBool> {
  const value = sql.ref(`${alias}.value`);
  if (dialect === 'postgres') {
    const x = sql`(${value} #> cast(${`{${path.join(',')}}`} as text[]))`;
    return sql<SqlBool>`(coalesce(jsonb_typeof(${x}), 'null') <> 'null')`;
  }
  const p = '$.' + path.join('.');
  return sql<SqlBool>`(coalesce(case when ${sql.ref(`${alias}.type`)} = 'object' then json_type(${value}, ${p}) end, 'null') <> 'null')`;
}

/**
 * A SELECT of the rows of a JSON array of flat objects bound as one parameter (a small table sent
 * with the statement, such as the router catalogue's prices), one text column per key (NULL when
 * missing): the body of a common table expression, so the array is read once per statement.
 */
export function jsonRecordsSelect(
  dialect: Dialect,
  rows: readonly Record<string, string>[],
  columns: readonly string[],
): RawBuilder<unknown> {
  const text = JSON.stringify(rows);
  const picks = sql.join(columns.map((c) => sql`(weft_record.value ->> ${dialect === 'postgres' ? c : '$.' + c}) as ${sql.id(c)}`));
  return dialect === 'postgres'
    ? sql`select ${picks} from jsonb_array_elements(cast(${text} as jsonb)) as weft_record`
    : sql`select ${picks} from json_each(${text}) as weft_record`;
}
