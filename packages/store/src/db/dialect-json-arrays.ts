// Dialect helpers for JSON arrays (beside dialect-helpers.ts, which holds the rest): expanding
// one bound JSON array of strings into rows (a 100,000-digest table list is inserted in a few
// statements with one parameter each), a column's array of integers into rows, and integers
// aggregated back into an ordered array.
import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './db.ts';

/** A FROM item `(idx, value)` over a JSON array of strings given as text: `idx` the 0-based position, `value` the string itself (text). */
export function jsonStringArrayElements(dialect: Dialect, arrayText: string): RawBuilder<unknown> {
  return dialect === 'postgres'
    ? sql`(select cast(ord - 1 as integer) as idx, value from jsonb_array_elements_text(cast(${arrayText} as jsonb)) with ordinality as e(value, ord))`
    : sql`(select key as idx, value from json_each(${arrayText}))`;
}

/**
 * A lateral FROM item `e(key, value)` over a JSON array column of integers: `key` its 0-based
 * position, `value` the element, both integers. SQLite's json_each may read columns of earlier
 * FROM items; PostgreSQL needs LATERAL for that.
 */
export function jsonIntArrayColumnElements(dialect: Dialect, column: string): RawBuilder<unknown> {
  return dialect === 'postgres'
    ? sql`cross join lateral (select cast(ord - 1 as integer) as "key", cast(v as integer) as "value" from jsonb_array_elements_text(${sql.ref(column)}) with ordinality as x(v, ord)) as e`
    : sql`join json_each(${sql.ref(column)}) as e`;
}

/** An aggregate: the JSON array of `value` over the group, in `orderBy` order. */
export function jsonIntArrayAgg(dialect: Dialect, value: string, orderBy: string): RawBuilder<unknown> {
  return dialect === 'postgres'
    ? sql`jsonb_agg(${sql.ref(value)} order by ${sql.ref(orderBy)})`
    : sql`json_group_array(${sql.ref(value)} order by ${sql.ref(orderBy)})`;
}
