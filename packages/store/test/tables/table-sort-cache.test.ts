// The sort-order cache: sorted pages read from a cached order are exactly the pages the direct
// sort returns, at every offset, in both databases; the first page alone, filtered queries and
// small tables never build one; concurrent builders of one order produce it once.
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { readJson, type Db } from '../../src/db/index.ts';
import { cachedPageQuery, sortKeyOf } from '../../src/tables/sort-order-cache.ts';
import { tableQueryBuilder } from '../../src/tables/table-query.ts';
import { tableMethods } from '../../src/tables/index.ts';
import { parseTableSort } from '../../src/tables/table-sort.ts';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, explain, newProject } from '../objects/helpers.ts';

// 300 rows (three chunks of the order): every kind of value the order distinguishes, ties (broken by position), duplicates
// (stored once, listed several times), missing paths and JSON null.
const VALUES: unknown[] = [3, '12', 'abc', null, -0.5, 'Abc', true, { a: 1 }, [2, 1], '1e1', '', 7.25, false];
function row(i: number): Record<string, unknown> {
  if (i % 17 === 5) return { name: 'dup', m: { score: 1 } };
  const v = VALUES[i % VALUES.length];
  return i % 11 === 4 ? { name: `r${i}` } : { name: `r${i}`, m: { score: v, group: i % 3 }, k: i % 4 };
}
const ROWS = Array.from({ length: 300 }, (_, i) => row(i));

const SORTS: T.TableSortItem[][] = [
  [{ field: 'm.score', direction: 'asc' }],
  [{ field: 'm.score', direction: 'desc' }],
  [
    { field: 'k', direction: 'desc' },
    { field: 'm.score', direction: 'asc' },
  ],
  [{ field: 'name' }],
];

describeEachDialect(
  'tableQuery sort-order cache',
  (getDb) => {
    const p = newProject('tcache');
    let digest = '';
    // Caches every page past the first of any table of at least 10 rows.
    let cached: ReturnType<typeof tableMethods>;
    beforeAll(async () => {
      cached = tableMethods({ db: getDb(), sortCache: { fromOffset: 1, minRows: 10 } });
      ({ digest } = await cached.tableCreate({ table: { project_id: p, rows: ROWS } }, ALICE));
    });

    type Req = Omit<T.TableQueryReq, 'project_id' | 'digest'>;
    const page = async (req: Req, project = p, table = digest) =>
      (await cached.tableQuery({ project_id: project, digest: table, ...req }, ALICE)).rows;
    // What the direct sort returns, whatever is cached: the store's direct SELECT, run as is.
    const direct = async (req: Req, project = p, table = digest): Promise<T.TableRowSchema[]> => {
      const db = getDb();
      const query = tableQueryBuilder(db, { project_id: project, digest: table, ...req });
      const rows = query ? await query.execute() : [];
      return rows.map((r) => ({ digest: r.row_digest, val: readJson(db, r.val), original_index: r.row_index }));
    };

    // Positions kept for an order: the lengths of its chunks, summed.
    const cachedRows = async (db: Db, sortBy: T.TableSortItem[], project = p): Promise<number> => {
      const { rows } = await sql<{ row_indexes: unknown }>`select row_indexes from table_sort_orders
      where project_id = ${project} and table_digest = ${digest} and sort_key = ${sortKeyOf(parseTableSort(sortBy))}`.execute(db.kysely);
      return rows.reduce((n, r) => n + (readJson(db, r.row_indexes) as number[]).length, 0);
    };

    it('answers every page exactly as the direct sort does, whichever page builds the order', async () => {
      const db = getDb();
      for (const sortBy of SORTS) {
        // The first page alone is answered by the direct sort and builds nothing.
        expect(await page({ sort_by: sortBy, limit: 7 })).toEqual(await direct({ sort_by: sortBy, limit: 7 }));
        expect(await cachedRows(db, sortBy)).toBe(0);
        // The second page builds it; every page, the first again included, then reads it.
        // Every page of 7, pages across the chunk boundaries (128, 256) and past the end.
        const offsets = [7, 0, ...Array.from({ length: 43 }, (_, k) => 14 + 7 * k), 121, 122, 127, 128, 250, 255, 256, 299, 300, 310];
        for (const offset of offsets) {
          const expected = await direct({ sort_by: sortBy, limit: 7, offset });
          expect(await page({ sort_by: sortBy, limit: 7, offset }), `${JSON.stringify(sortBy)} at ${offset}`).toEqual(expected);
        }
        // A page spanning three chunks.
        expect(await page({ sort_by: sortBy, limit: 200, offset: 100 })).toEqual(
          await direct({ sort_by: sortBy, limit: 200, offset: 100 }),
        );
        expect(await cachedRows(db, sortBy)).toBe(ROWS.length);
        expect(await page({ sort_by: sortBy, offset: 20 })).toEqual(await direct({ sort_by: sortBy, offset: 20 }));
        expect(await page({ sort_by: sortBy })).toEqual(await direct({ sort_by: sortBy }));
      }
      // The whole order, checked once more against the values themselves: positions and rows agree.
      const all = await page({ sort_by: SORTS[0], offset: 1 });
      expect(all.map((r) => r.original_index)).toEqual((await direct({ sort_by: SORTS[0] })).slice(1).map((r) => r.original_index));
      for (const r of all) expect(r.val).toEqual(ROWS[r.original_index as number]);
    });

    it('keeps one order per project, table and sort_by', async () => {
      const db = getDb();
      const other = newProject('tcache-other');
      await cached.tableCreate({ table: { project_id: other, rows: ROWS } }, ALICE);
      const sortBy = [{ field: 'm.group', direction: 'desc' as const }];
      expect(await page({ sort_by: sortBy, offset: 3, limit: 5 }, other)).toEqual(
        await direct({ sort_by: sortBy, offset: 3, limit: 5 }, other),
      );
      expect(await cachedRows(db, sortBy, other)).toBe(ROWS.length);
      expect(await cachedRows(db, sortBy, p)).toBe(0);
    });

    it('bypasses the cache for row_digests filters and small tables', async () => {
      const db = getDb();
      const sortBy = [{ field: 'm.score', direction: 'desc' as const }, { field: 'name' }];
      const first = (await direct({}))[0]!.digest;
      const dup = (await direct({}))[5]!.digest;
      const filter = { row_digests: [first, dup] };
      expect(await page({ sort_by: sortBy, filter, offset: 1, limit: 2 })).toEqual(
        await direct({ sort_by: sortBy, filter, offset: 1, limit: 2 }),
      );
      expect(await cachedRows(db, sortBy)).toBe(0);

      const small = newProject('tcache-small');
      const { digest: smallDigest } = await cached.tableCreate({ table: { project_id: small, rows: ROWS.slice(0, 9) } }, ALICE);
      expect(await page({ sort_by: sortBy, offset: 2, limit: 3 }, small, smallDigest)).toEqual(
        await direct({ sort_by: sortBy, offset: 2, limit: 3 }, small, smallDigest),
      );
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from table_sort_orders where project_id = ${small}`.execute(
        db.kysely,
      );
      expect(Number(rows[0]?.n)).toBe(0);
      // An unknown table builds nothing and has no rows.
      expect(await page({ sort_by: sortBy, offset: 2 }, p, 'unknown')).toEqual([]);
    });

    it('builds an order once when several requests ask for it at the same time', async () => {
      const db = getDb();
      const sortBy = [
        { field: 'm.score', direction: 'asc' as const },
        { field: 'k', direction: 'desc' as const },
      ];
      const offsets = [5, 10, 15, 20, 25, 30];
      const pages = await Promise.all(offsets.map((offset) => page({ sort_by: sortBy, offset, limit: 5 })));
      for (const [i, offset] of offsets.entries()) expect(pages[i]).toEqual(await direct({ sort_by: sortBy, offset, limit: 5 }));
      expect(await cachedRows(db, sortBy)).toBe(ROWS.length);
    });

    it('reads a cached page as a range of the order primary key', async () => {
      const db = getDb();
      const keys = parseTableSort(SORTS[0]);
      const compiled = cachedPageQuery(db, { projectId: p, tableDigest: digest, keys, offset: 20, limit: 7 }).compile(db.kysely);
      const plan = await explain(db, compiled);
      // The order's chunks by primary key, then each row by table_rows' and rows' primary keys. (The
      // sort left is over the positions of at most two chunks.)
      expect(plan).toMatch(
        db.dialect === 'postgres'
          ? /table_sort_orders_pkey/
          : /sqlite_autoindex_table_sort_orders_1 \(project_id=\? AND table_digest=\? AND sort_key=\? AND chunk>\? AND chunk<\?\)/,
      );
      expect(plan).toMatch(
        db.dialect === 'postgres'
          ? /table_rows_pkey/
          : /sqlite_autoindex_table_rows_1 \(project_id=\? AND table_digest=\? AND row_index=\?\)/,
      );
      expect(plan).not.toMatch(db.dialect === 'postgres' ? /Seq Scan/ : /SCAN (tr|r|so)\b/);
    });
  },
  { sqliteFile: true },
);
