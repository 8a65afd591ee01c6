// Dialect helpers for arithmetic on prices kept as plain decimal text (llm_token_prices, the router
// catalogue's prices): PostgreSQL computes in exact numeric, SQLite in doubles (it has no decimal
// type), so two costs that differ only past a double's precision may tie on SQLite.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from './db.ts';

/** @weft/core's isPlainDecimalString in SQL: `-?digits(.digits)?`, ASCII digits only. */
export function isPlainDecimal(dialect: Dialect, text: Expression<unknown>): RawBuilder<SqlBool> {
  if (dialect === 'postgres') return sql<SqlBool>`(${text} ~ '^-?[0-9]+([.][0-9]+)?$')`;
  const unsigned = sql`(case when substr(${text}, 1, 1) = '-' then substr(${text}, 2) else ${text} end)`;
  return sql<SqlBool>`(typeof(${text}) = 'text' and ${unsigned} glob '[0-9]*' and ${unsigned} glob '*[0-9]'
    and ${unsigned} not glob '*[^0-9.]*' and ${unsigned} not glob '*.*.*')`;
}

/** A plain decimal text as a number: exact numeric on PostgreSQL, the nearest double on SQLite. */
export function decimalOf(dialect: Dialect, text: Expression<unknown>): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`cast(${text} as numeric)` : sql<number>`cast(${text} as real)`;
}

/** A double truncated toward zero (JS Math.trunc), as a number the prices can multiply. */
export function wholeOf(dialect: Dialect, x: Expression<unknown>): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`cast(trunc(${x}) as numeric)` : sql<number>`trunc(${x})`;
}

/** The smaller of two numbers (Math.min). */
export function smallerOf(dialect: Dialect, a: Expression<unknown>, b: Expression<unknown>): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`least(${a}, ${b})` : sql<number>`min(${a}, ${b})`;
}
