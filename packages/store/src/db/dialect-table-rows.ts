// Dialect helpers for reaching a stored table's row values (beside dialect-helpers.ts, which holds
// the rest): joining positions to their values, and reading several paths of each value once.
// Table rows keep their JSON as written (PostgreSQL json, text that every `->` parses whole).
import { sql, type AliasedRawBuilder, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { pgExtractAsWritten } from './dialect-json-paths.ts';
import { asWritten, dialectOf, type AsWrittenColumn, type DialectSource, type JsonSource } from './dialect-source.ts';
import type { Database } from './schema.ts';

/**
 * `join rows as r` onto a table's positions `tr`. With `lookup`, PostgreSQL finds each value by
 * its primary key (a LATERAL subquery, fenced by `limit 1` so the planner cannot flatten it back
 * into a join it plans from its estimates): for a project its statistics have not seen yet (a
 * table read right after its creation, as the Weave SDK does) it estimated 1 position and
 * scanned the project's rows once per position: a large table took minutes, against a fraction
 * of a second by lookup. Without `lookup` the planner chooses, which is much faster for a whole
 * sort of a large table whose statistics it has: see LOOKUP_MAX_ROWS in tables/row-values.ts.
 * SQLite always plans this join as primary-key lookups.
 */
export function rowValuesJoin(d: DialectSource, { lookup }: { lookup: boolean }): RawBuilder<unknown> {
  return dialectOf(d) === 'postgres' && lookup
    ? sql`cross join lateral (select r0.val from rows as r0 where r0.project_id = tr.project_id and r0.digest = tr.row_digest limit 1) as r`
    : sql`join rows as r on r.project_id = tr.project_id and r.digest = tr.row_digest`;
}

type PositionsQuery = SelectQueryBuilder<Database & { tr: Database['table_rows'] }, 'tr', object>;
type PositionsWithValues = SelectQueryBuilder<Database & { tr: Database['table_rows']; r: Database['rows'] }, 'tr' | 'r', object>;

/** rowValuesJoin for a query builder over `table_rows as tr`. */
export function joinRowValues(d: DialectSource, q: PositionsQuery, { lookup }: { lookup: boolean }): PositionsWithValues {
  if (dialectOf(d) === 'postgres' && lookup) {
    return q.innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('rows as r0')
          .select(['r0.project_id', 'r0.digest', 'r0.val'])
          .whereRef('r0.project_id', '=', 'tr.project_id')
          .whereRef('r0.digest', '=', 'tr.row_digest')
          .limit(1)
          .as('r'),
      (join) => join.onTrue(),
    );
  }
  return q.innerJoin('rows as r', (join) => join.onRef('r.project_id', '=', 'tr.project_id').onRef('r.digest', '=', 'tr.row_digest'));
}

/**
 * True when rowValuesJoin's `lookup` changes the join (PostgreSQL), so a whole-table read is
 * worth counting its rows to choose (wholeTableByLookup in tables/row-values.ts). SQLite always
 * looks values up by primary key.
 */
export function rowValuesLookupIsOptional(d: DialectSource): boolean {
  return dialectOf(d) === 'postgres';
}

/** Where the terms reading one path (by index) of a row value find it: what to read, at which path. */
export interface JsonPathsReadOnce<A extends string> {
  /** The FROM item holding the values (join it laterally), or null when each term reads the column. */
  from: AliasedRawBuilder<Record<string, unknown>, A> | null;
  /** For the type and number terms (jsonPathType, jsonPathAsNumber). */
  value(i: number): { source: JsonSource; path: readonly string[] };
  /** For the text term (jsonPathAsText): the value as written, so objects keep their keys' order. */
  text(i: number): { source: JsonSource; path: readonly string[] };
}

/**
 * The values at `paths` of a column of JSON as written, for several terms each reading one of
 * them. PostgreSQL parses the whole json text on every `->` (a trajectory row is megabytes): so
 * each path is read once per row, in a LATERAL item `alias` (`offset 0` keeps the planner from
 * inlining it back into each term that reads it): `w<i>` as written (json), for the text term,
 * and `k<i>` as jsonb, for the others. SQLite reads the column in each term, as it always has.
 */
export function jsonPathsReadOnce<A extends string>(
  d: DialectSource,
  column: AsWrittenColumn,
  paths: readonly (readonly string[])[],
  alias: A,
): JsonPathsReadOnce<A> {
  if (dialectOf(d) !== 'postgres') {
    const at = (i: number) => ({ source: column, path: paths[i] ?? [] });
    return { from: null, value: at, text: at };
  }
  const written = paths.map((path, i) => sql`${pgExtractAsWritten(column, path)} as ${sql.ref(`w${i}`)}`);
  const both = paths.map((_, i) => sql`${sql.ref(`w${i}`)}, cast(${sql.ref(`w${i}`)} as jsonb) as ${sql.ref(`k${i}`)}`);
  return {
    from: sql<Record<string, unknown>>`(select ${sql.join(both)} from (select ${sql.join(written)} offset 0) as w offset 0)`.as(alias),
    value: (i) => ({ source: sql.ref(`${alias}.k${i}`), path: [] }),
    text: (i) => ({ source: asWritten(`${alias}.w${i}`), path: [] }),
  };
}
