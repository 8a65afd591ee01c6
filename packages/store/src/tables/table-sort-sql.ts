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
import {
  asWritten,
  jsonPathAsNumber,
  jsonPathAsText,
  jsonPathType,
  jsonPathsReadOnce,
  type Db,
  type JsonPathsReadOnce,
} from '../db/index.ts';
import type { TableSortKey } from './table-sort.ts';

/** Each key's value read once per row (jsonPathsReadOnce over the row's value `r.val`), as `sk`. */
function keyValues(db: Db, keys: readonly TableSortKey[]): JsonPathsReadOnce<'sk'> {
  return jsonPathsReadOnce(
    db,
    asWritten('r.val'),
    keys.map(({ path }) => path),
    'sk',
  );
}

/** The FROM item `sk` the sort terms read (join it laterally), or null when they read `r.val` themselves. */
export function sortKeyValues(db: Db, keys: readonly TableSortKey[]): AliasedRawBuilder<Record<string, unknown>, 'sk'> | null {
  return keyValues(db, keys).from;
}

/**
 * Each item is a complete ORDER BY term (`expr asc nulls last`), over `tr.row_index` and the
 * row's value `r.val`, or sortKeyValues' `sk` where there is one (join it first).
 */
export function sortOrderItems(db: Db, keys: readonly TableSortKey[]): RawBuilder<unknown>[] {
  const values = keyValues(db, keys);
  const items: RawBuilder<unknown>[] = [];
  keys.forEach(({ direction }, i) => {
    const value = values.value(i);
    // Objects and arrays compare as the text written, keys in the order sent, in both databases.
    const text = values.text(i);
    const type = jsonPathType(db, value.source, value.path);
    const dir = sql.raw(direction === 'asc' ? 'asc' : 'desc');
    items.push(
      sql`(case when ${type} is null or ${type} = 'null' then 1 else 0 end) asc`,
      sql`${jsonPathAsNumber(db, value.source, value.path)} ${dir} nulls last`,
      sql`${jsonPathAsText(db, text.source, text.path)} ${dir} nulls last`,
    );
  });
  items.push(sql`${sql.ref('tr.row_index')} asc`);
  return items;
}
