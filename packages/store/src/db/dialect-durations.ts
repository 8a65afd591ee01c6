// Dialect helpers for durations and floating-point arithmetic (beside dialect-helpers.ts, which
// holds the rest): whole milliseconds between two stored datetimes, and a bound number (or an
// expression) that both databases compute with as an IEEE double, so a formula gives the same
// bits on either.
import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Dialect } from './db.ts';

/**
 * Milliseconds from `start` to `end` (stored datetimes: fixed-width UTC ISO text with
 * milliseconds), exact, as an integer; SQL NULL when either is NULL. SQLite: whole seconds by
 * unixepoch plus the difference of the millisecond digits (julianday's double would round);
 * PostgreSQL: extract(epoch …) is numeric, so exact too.
 */
export function isoDiffMs(dialect: Dialect, end: Expression<unknown>, start: Expression<unknown>): RawBuilder<number | null> {
  if (dialect === 'postgres') {
    return sql<
      number | null
    >`cast((extract(epoch from cast(${end} as timestamptz)) - extract(epoch from cast(${start} as timestamptz))) * 1000 as bigint)`;
  }
  return sql<
    number | null
  >`((unixepoch(${end}) - unixepoch(${start})) * 1000 + (cast(substr(${end}, 21, 3) as integer) - cast(substr(${start}, 21, 3) as integer)))`;
}

/**
 * `value` bound as a double precision number. PostgreSQL would otherwise type an untyped
 * parameter from its neighbour (`$1 * bigint` makes it bigint) or read a literal as numeric.
 */
export function doubleParam(dialect: Dialect, value: number): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`cast(${value} as double precision)` : sql<number>`cast(${value} as real)`;
}

/**
 * Milliseconds since the Unix epoch of a stored datetime (fixed-width UTC ISO text with
 * milliseconds), exact, as an integer: the same arithmetic as isoDiffMs against the epoch.
 */
export function isoEpochMs(dialect: Dialect, value: Expression<unknown>): RawBuilder<number | null> {
  if (dialect === 'postgres') return sql<number | null>`cast(extract(epoch from cast(${value} as timestamptz)) * 1000 as bigint)`;
  return sql<number | null>`(unixepoch(${value}) * 1000 + cast(substr(${value}, 21, 3) as integer))`;
}

/** `expr` as a double (double precision; SQLite: real), as doubleParam binds a number. */
export function castDouble(dialect: Dialect, expr: Expression<unknown>): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`cast(${expr} as double precision)` : sql<number>`cast(${expr} as real)`;
}

/** avg(`expr`) as a double: PostgreSQL's avg of integers (or numerics) is an exact numeric; SQLite's is a double. */
export function averageAsDouble(dialect: Dialect, expr: Expression<unknown>): RawBuilder<number | null> {
  return dialect === 'postgres' ? sql<number | null>`avg(cast(${expr} as double precision))` : sql<number | null>`avg(${expr})`;
}
