// Dialect helpers for JSON columns read and written as text (moving rows between databases,
// transfer/row-codec.ts), beside dialect-helpers.ts, which holds the rest. PostgreSQL's drivers
// give jsonb and json as parsed values unless cast to text; SQLite stores and gives the text.
import { sql, type AliasedRawBuilder } from 'kysely';
import { dialectOf, type DialectSource } from './dialect-source.ts';

/** A select item reading a JSON column (jsonb, json, or SQLite's text) as its JSON text, under its own name. */
export function jsonColumnAsText(d: DialectSource, column: string): string | AliasedRawBuilder<unknown, string> {
  return dialectOf(d) === 'postgres' ? sql`cast(${sql.ref(column)} as text)`.as(column) : column;
}

/**
 * True when a JSON column keeps the text bound to it as it is (SQLite), blanks between tokens
 * included; PostgreSQL's jsonb stores its own rendering of it.
 */
export function jsonColumnKeepsBoundText(d: DialectSource): boolean {
  return dialectOf(d) === 'sqlite';
}
