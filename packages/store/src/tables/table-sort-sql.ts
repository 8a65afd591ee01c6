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
import { sql, type RawBuilder } from 'kysely';
import { jsonPathAsNumber, jsonPathAsText, jsonPathType, type Db } from '../db/index.ts';
import type { TableSortKey } from './table-sort.ts';

/** Each item is a complete ORDER BY term (`expr asc nulls last`), over `r.val` and `tr.row_index`. */
export function sortOrderItems(db: Db, keys: readonly TableSortKey[]): RawBuilder<unknown>[] {
  const items: RawBuilder<unknown>[] = [];
  for (const { path, direction } of keys) {
    const type = jsonPathType(db, 'r.val', path);
    const dir = sql.raw(direction === 'asc' ? 'asc' : 'desc');
    items.push(
      sql`(case when ${type} is null or ${type} = 'null' then 1 else 0 end) asc`,
      sql`${jsonPathAsNumber(db, 'r.val', path)} ${dir} nulls last`,
      sql`${jsonPathAsText(db, 'r.val', path)} ${dir} nulls last`,
    );
  }
  items.push(sql`${sql.ref('tr.row_index')} asc`);
  return items;
}
