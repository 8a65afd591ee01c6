// The sort-order cache: sorted pages read from a cached order are exactly the pages the direct
// sort returns, at every offset, in both databases; the first page alone, filtered queries and
// small tables never build one; concurrent builders of one order produce it once.
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/index.ts';
import { cachedPageQuery, sortKeyOf } from '../../src/tables/sort-order-cache.ts';
import { tableMethods } from '../../src/tables/index.ts';
import { parseTableSort } from '../../src/tables/table-sort.ts';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, explain, newProject } from '../objects/helpers.ts';

// 53 rows: every kind of value the order distinguishes, ties (broken by position), duplicates
// (stored once, listed several times), missing paths and JSON null.
const VALUES: unknown[] = [3, '12', 'abc', null, -0.5, 'Abc', true, { a: 1 }, [2, 1], '1e1', '', 7.25, false];
function row(i: number): Record<string, unknown> {
  if (i % 17 === 5) return { name: 'dup', m: { score: 1 } };
  const v = VALUES[i % VALUES.length];
  return i % 11 === 4 ? { name: `r${i}` } : { name: `r${i}`, m: { score: v, group: i % 3 }, k: i % 4 };
}
const ROWS = Array.from({ length: 53 }, (_, i) => row(i));

const SORTS: T.TableSortItem[][] = [
  [{ field: 'm.score', direction: 'asc' }],
  [{ field: 'm.score', direction: 'desc' }],
  [{ field: 'k', direction: 'desc' }, { field: 'm.score', direction: 'asc' }],
  [{ field: 'name' }],
];

describeEachDialect('tableQuery sort-order cache', (getDb) => {
  const p = newProject('tcache');
  let digest = '';
  // Never caches / caches every page past the first of any table of at least 10 rows.
  let direct: ReturnType<typeof tableMethods>;
  let cached: ReturnType<typeof tableMethods>;
  beforeAll(async () => {
    const db = getDb();
    direct = tableMethods({ db, sortCache: { fromOffset: Number.POSITIVE_INFINITY, minRows: Number.POSITIVE_INFINITY } });
    cached = tableMethods({ db, sortCache: { fromOffset: 1, minRows: 10 } });
    ({ digest } = await direct.tableCreate({ table: { project_id: p, rows: ROWS as never[] } }, ALICE));
  });

  const page = async (store: typeof direct, req: Omit<T.TableQueryReq, 'project_id' | 'digest'>, project = p, table = digest) =>
    (await store.tableQuery({ project_id: project, digest: table, ...req }, ALICE)).rows;
  const cachedRows = async (db: Db, sortBy: T.TableSortItem[], project = p): Promise<number> => {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from table_sort_orders
      where project_id = ${project} and table_digest = ${digest} and sort_key = ${sortKeyOf(parseTableSort(sortBy))}`.execute(db.kysely);
    return Number(rows[0]?.n);
  };

  it('answers every page exactly as the direct sort does, whichever page builds the order', async () => {
    const db = getDb();
    for (const sortBy of SORTS) {
      // The first page alone is answered by the direct sort and builds nothing.
      expect(await page(cached, { sort_by: sortBy, limit: 7 })).toEqual(await page(direct, { sort_by: sortBy, limit: 7 }));
      expect(await cachedRows(db, sortBy)).toBe(0);
      // The second page builds it; every page, the first again included, then reads it.
      for (const offset of [7, 0, 14, 21, 28, 35, 42, 49, 52, 53, 60]) {
        const expected = await page(direct, { sort_by: sortBy, limit: 7, offset });
        expect(await page(cached, { sort_by: sortBy, limit: 7, offset }), `${JSON.stringify(sortBy)} at ${offset}`).toEqual(expected);
      }
      expect(await cachedRows(db, sortBy)).toBe(ROWS.length);
      expect(await page(cached, { sort_by: sortBy, offset: 20 })).toEqual(await page(direct, { sort_by: sortBy, offset: 20 }));
      expect(await page(cached, { sort_by: sortBy })).toEqual(await page(direct, { sort_by: sortBy }));
    }
    // The whole order, checked once more against the values themselves: positions and rows agree.
    const all = await page(cached, { sort_by: SORTS[0], offset: 1 });
    expect(all.map((r) => r.original_index)).toEqual((await page(direct, { sort_by: SORTS[0] })).slice(1).map((r) => r.original_index));
    for (const r of all) expect(r.val).toEqual(ROWS[r.original_index as number]);
  });

  it('keeps one order per project, table and sort_by', async () => {
    const db = getDb();
    const other = newProject('tcache-other');
    await direct.tableCreate({ table: { project_id: other, rows: ROWS as never[] } }, ALICE);
    const sortBy = [{ field: 'm.group', direction: 'desc' as const }];
    expect(await page(cached, { sort_by: sortBy, offset: 3, limit: 5 }, other)).toEqual(await page(direct, { sort_by: sortBy, offset: 3, limit: 5 }, other));
    expect(await cachedRows(db, sortBy, other)).toBe(ROWS.length);
    expect(await cachedRows(db, sortBy, p)).toBe(0);
  });

  it('bypasses the cache for row_digests filters and small tables', async () => {
    const db = getDb();
    const sortBy = [{ field: 'm.score', direction: 'desc' as const }, { field: 'name' }];
    const first = (await page(direct, {}))[0]!.digest;
    const dup = (await page(direct, {}))[5]!.digest;
    const filter = { row_digests: [first, dup] };
    expect(await page(cached, { sort_by: sortBy, filter, offset: 1, limit: 2 })).toEqual(await page(direct, { sort_by: sortBy, filter, offset: 1, limit: 2 }));
    expect(await cachedRows(db, sortBy)).toBe(0);

    const small = newProject('tcache-small');
    const { digest: smallDigest } = await direct.tableCreate({ table: { project_id: small, rows: ROWS.slice(0, 9) as never[] } }, ALICE);
    expect(await page(cached, { sort_by: sortBy, offset: 2, limit: 3 }, small, smallDigest)).toEqual(
      await page(direct, { sort_by: sortBy, offset: 2, limit: 3 }, small, smallDigest),
    );
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from table_sort_orders where project_id = ${small}`.execute(db.kysely);
    expect(Number(rows[0]?.n)).toBe(0);
    // An unknown table builds nothing and has no rows.
    expect(await page(cached, { sort_by: sortBy, offset: 2 }, p, 'unknown')).toEqual([]);
  });

  it('builds an order once when several requests ask for it at the same time', async () => {
    const db = getDb();
    const sortBy = [{ field: 'm.score', direction: 'asc' as const }, { field: 'k', direction: 'desc' as const }];
    const offsets = [5, 10, 15, 20, 25, 30];
    const pages = await Promise.all(offsets.map((offset) => page(cached, { sort_by: sortBy, offset, limit: 5 })));
    for (const [i, offset] of offsets.entries()) expect(pages[i]).toEqual(await page(direct, { sort_by: sortBy, offset, limit: 5 }));
    expect(await cachedRows(db, sortBy)).toBe(ROWS.length);
  });

  it('reads a cached page as a range of the order primary key', async () => {
    const db = getDb();
    const keys = parseTableSort(SORTS[0]);
    const compiled = cachedPageQuery(db, { projectId: p, tableDigest: digest, keys, offset: 20, limit: 7 }).compile();
    expect(compiled.sql).not.toMatch(/offset/i);
    const plan = await explain(db, compiled);
    expect(plan).toMatch(
      db.dialect === 'postgres' ? /table_sort_orders_pkey/ : /sqlite_autoindex_table_sort_orders_1 \(project_id=\? AND table_digest=\? AND sort_key=\? AND position>\?\)/,
    );
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });
});

