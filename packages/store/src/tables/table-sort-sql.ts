// The ORDER BY items of a sorted table query, written once: the direct (top-k) query and the
// ROW_NUMBER() that fills the sort-order cache must order rows identically, or a cached page
// would differ from the page the direct query returns.
//
// Sort keys follow Weave's production (ClickHouse) order for each item:
//   1. rows where the path exists and is not JSON null first, in both directions;
//   2. the value as a float (numbers and numeric strings such as "10") in the requested direction,
//      values without one after all numbers;
//   3. the value as text (objects and arrays as minified JSON) in the requested direction;
// then the table position, ascending. NULL placement is spelled out, as the two databases differ.
import { sql, type AliasedRawBuilder, type RawBuilder } from 'kysely';
import { asWritten, jsonPathAsNumber, jsonPathAsText, jsonPathType, pgExtractAsWritten, type Db, type JsonSource } from '../db/index.ts';
import type { TableSortKey } from './table-sort.ts';

/**
 * PostgreSQL keeps table rows as json text, which every `->` reads whole (a trajectory row is
 * megabytes): so each key's value is taken once per row, in a LATERAL item `sk` for the FROM
 * list (`offset 0` keeps the planner from inlining it back into each term that reads it): `w<i>`
 * as written (json), for the text term, and `k<i>` as jsonb, for the type and number terms.
 * SQLite reads the row per term, as it always has: null there.
 */
export function sortKeyValues(db: Db, keys: readonly TableSortKey[]): AliasedRawBuilder<Record<string, unknown>, 'sk'> | null {
  if (db.dialect !== 'postgres') return null;
  const written = keys.map(({ path }, i) => sql`${pgExtractAsWritten(asWritten('r.val'), path)} as ${sql.ref(`w${i}`)}`);
  const both = keys.map((_, i) => sql`${sql.ref(`w${i}`)}, cast(${sql.ref(`w${i}`)} as jsonb) as ${sql.ref(`k${i}`)}`);
  return sql<Record<string, unknown>>`(select ${sql.join(both)} from (select ${sql.join(written)} offset 0) as w offset 0)`.as('sk');
}

/**
 * Each item is a complete ORDER BY term (`expr asc nulls last`), over `tr.row_index` and the
 * row's value: `r.val` on SQLite, sortKeyValues' `sk` on PostgreSQL (join it first).
 */
export function sortOrderItems(db: Db, keys: readonly TableSortKey[]): RawBuilder<unknown>[] {
  const items: RawBuilder<unknown>[] = [];
  keys.forEach(({ path, direction }, i) => {
    const pg = db.dialect === 'postgres';
    const [value, at]: [JsonSource, readonly string[]] = pg ? [sql.ref(`sk.k${i}`), []] : [asWritten('r.val'), path];
    // Objects and arrays compare as the text written, keys in the order sent, in both databases.
    const text: JsonSource = pg ? asWritten(`sk.w${i}`) : value;
    const type = jsonPathType(db, value, at);
    const dir = sql.raw(direction === 'asc' ? 'asc' : 'desc');
    items.push(
      sql`(case when ${type} is null or ${type} = 'null' then 1 else 0 end) asc`,
      sql`${jsonPathAsNumber(db, value, at)} ${dir} nulls last`,
      sql`${jsonPathAsText(db, text, at)} ${dir} nulls last`,
    );
  });
  items.push(sql`${sql.ref('tr.row_index')} asc`);
  return items;
}
