// tableQuery: positions, paging (a range read when unfiltered and unsorted), the row_digests
// filter, and sorting by dot paths with one order in both databases.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { tableQueryBuilder } from '../../src/tables/table-query.ts';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, expectWeftError, explain, newProject, storeOn, type TestStore } from '../objects/helpers.ts';
import { LOOKUP_MAX_ROWS } from '../../src/tables/row-values.ts';

describeEachDialect('tableQuery', (getDb) => {
  let store: TestStore;
  const p = newProject('tq');
  let digest = '';
  let rowDigests: string[] = [];
  // Ten rows; rows 0, 3 and 7 are the same row.
  const rows = [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 0 }, { n: 4 }, { n: 5 }, { n: 6 }, { n: 0 }, { n: 8 }, { n: 9 }];
  beforeAll(async () => {
    store = storeOn(getDb());
    ({ digest, row_digests: rowDigests } = await store.tableCreate({ table: { project_id: p, rows: rows } }, ALICE));
  });

  const query = (req: Omit<T.TableQueryReq, 'project_id' | 'digest'>): Promise<T.TableQueryRes> =>
    store.tableQuery({ project_id: p, digest, ...req }, ALICE);
  const positions = async (req: Omit<T.TableQueryReq, 'project_id' | 'digest'>): Promise<number[]> =>
    (await query(req)).rows.map((r) => r.original_index as number);

  it('returns every row in table order with digest, value and position', async () => {
    const res = await query({});
    expect(res.rows).toHaveLength(10);
    res.rows.forEach((r, i) => expect(r).toEqual({ digest: rowDigests[i], val: rows[i], original_index: i }));
    expect(await store.tableQuery({ project_id: p, digest: 'unknown' }, ALICE)).toEqual({ rows: [] });
    expect(await store.tableQuery({ project_id: newProject('tq-other'), digest }, ALICE)).toEqual({ rows: [] });
  });

  it('pages: limit, offset, offset past the end, limit 0, offset without limit', async () => {
    expect(await positions({ limit: 3 })).toEqual([0, 1, 2]);
    expect(await positions({ limit: 3, offset: 8 })).toEqual([8, 9]);
    expect(await positions({ offset: 7 })).toEqual([7, 8, 9]);
    expect(await positions({ offset: 10 })).toEqual([]);
    expect(await positions({ offset: 1000, limit: 5 })).toEqual([]);
    expect(await positions({ limit: 0 })).toEqual([]);
    expect(await positions({ limit: null, offset: null })).toHaveLength(10);
    await expectWeftError(query({ limit: -1 }), 400, 'InvalidRequest');
    await expectWeftError(query({ offset: -2 }), 400, 'InvalidRequest');
  });

  it('filters by row digest (every occurrence, positions kept); an empty list is no filter', async () => {
    const zero = rowDigests[0] as string;
    expect(await positions({ filter: { row_digests: [zero] } })).toEqual([0, 3, 7]);
    expect(await positions({ filter: { row_digests: [zero, rowDigests[8] as string, 'nope'] }, offset: 1, limit: 2 })).toEqual([3, 7]);
    expect(await positions({ filter: { row_digests: [] } })).toHaveLength(10);
    expect(await positions({ filter: { row_digests: ['nope'] } })).toEqual([]);
  });

  it('reads an unfiltered, unsorted page as a range of row_index on the primary key', async () => {
    const db = getDb();
    const compiled = tableQueryBuilder(db, { project_id: p, digest, offset: 5, limit: 2 })!.compile();
    expect(compiled.sql).toMatch(/"row_index" >= /);
    expect(compiled.sql).not.toMatch(/offset/i);
    expect(compiled.sql).toMatch(/limit/i);
    const plan = await explain(db, compiled);
    expect(plan).toMatch(
      db.dialect === 'postgres'
        ? /table_rows_pkey/
        : /sqlite_autoindex_table_rows_1 \(project_id=\? AND table_digest=\? AND row_index>\?\)/,
    );
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('looks each value up by the full primary key of rows, whatever the planner estimates', async () => {
    // PostgreSQL estimated 1 row for a project its statistics had not seen and filtered all of
    // the project's rows once per position (a 50,000-row table read right after its creation: minutes).
    const db = getDb();
    for (const req of [
      { project_id: p, digest },
      { project_id: p, digest, sort_by: [{ field: 'v', direction: 'desc' as const }] },
    ]) {
      const plan = await explain(db, tableQueryBuilder(db, req)!.compile());
      expect(plan).toMatch(
        db.dialect === 'postgres'
          ? /Index Cond: \(\(project_id = tr\.project_id\) AND \(digest = tr\.row_digest\)\)/
          : /SEARCH r USING INDEX sqlite_autoindex_rows_1 \(project_id=\? AND digest=\?\)/,
      );
    }
    // A whole table past LOOKUP_MAX_ROWS is left to the planner (its statistics are fresh: table/create analyzes).
    const big = tableQueryBuilder(db, { project_id: p, digest }, LOOKUP_MAX_ROWS + 1)!.compile().sql;
    expect(big).not.toMatch(/lateral/i);
    expect(tableQueryBuilder(db, { project_id: p, digest }, LOOKUP_MAX_ROWS)!.compile().sql).toMatch(
      db.dialect === 'postgres' ? /lateral/i : /join "rows"/,
    );
  });
});

describeEachDialect(
  'tableQuery sort_by',
  (getDb) => {
    let store: TestStore;
    const p = newProject('tsort');
    let digest = '';
    // Insertion order = original_index.
    const rows: Record<string, unknown>[] = [
      { v: 10 }, //            0  number
      { v: '9' }, //           1  numeric string
      { v: 'abc' }, //         2
      {}, //                   3  missing
      { v: null }, //          4  JSON null: with the missing ones
      { v: 2.5 }, //           5
      { v: true }, //          6  text "true"
      { v: { b: 1, aa: 2 } }, // 7  text {"b":1,"aa":2} (keys as written, in both databases)
      { v: [1, 2] }, //        8  text [1,2]
      { v: '10' }, //          9  numeric 10, ties with row 0 (text "10" too)
      { v: -1 }, //           10
      { v: 'Abc' }, //        11
      { v: false }, //        12
      { v: { aa: 1, b: 2 } }, // 13 text {"aa":1,"b":2}
      { v: '' }, //           14 empty string: text
      { v: ' 7' }, //         15 not a number (blank): text
      { v: '1e1' }, //        16 numeric string 10
    ];
    beforeAll(async () => {
      store = storeOn(getDb());
      ({ digest } = await store.tableCreate({ table: { project_id: p, rows: rows } }, ALICE));
    });

    const sorted = async (
      sortBy: T.TableSortItem[],
      extra: Omit<T.TableQueryReq, 'project_id' | 'digest' | 'sort_by'> = {},
    ): Promise<number[]> =>
      (await store.tableQuery({ project_id: p, digest, sort_by: sortBy, ...extra }, ALICE)).rows.map((r) => r.original_index as number);

    it('ascending: numbers (numeric strings too), then text byte-wise, then missing and null', async () => {
      expect(await sorted([{ field: 'v', order: 'asc' }])).toEqual([10, 5, 1, 0, 9, 16, 14, 15, 11, 8, 2, 12, 6, 13, 7, 3, 4]);
      expect(await sorted([{ field: 'v' }])).toEqual(await sorted([{ field: 'v', order: 'asc' }]));
    });

    it('descending: numbers, then text, each reversed; missing and null still last; ties by position', async () => {
      expect(await sorted([{ field: 'v', order: 'desc' }])).toEqual([16, 0, 9, 1, 5, 10, 7, 13, 6, 12, 2, 8, 11, 15, 14, 3, 4]);
      // Weave's `direction` is accepted as well, alone or agreeing with `order`.
      expect(await sorted([{ field: 'v', direction: 'desc' }])).toEqual(await sorted([{ field: 'v', order: 'desc' }]));
      expect(await sorted([{ field: 'v', direction: 'desc', order: 'desc' }])).toEqual(await sorted([{ field: 'v', order: 'desc' }]));
    });

    it('pages and filters after sorting, keeping table positions', async () => {
      expect(await sorted([{ field: 'v', order: 'desc' }], { offset: 2, limit: 3 })).toEqual([9, 1, 5]);
      expect(await sorted([{ field: 'v', order: 'desc' }], { offset: 15 })).toEqual([3, 4]);
      expect(await sorted([{ field: 'v', order: 'desc' }], { limit: 0 })).toEqual([]);
      const res = await store.tableQuery({ project_id: p, digest, sort_by: [{ field: 'v', order: 'asc' }], limit: 1 }, ALICE);
      expect(res.rows[0]).toMatchObject({ original_index: 10, val: { v: -1 } });
    });

    it('rejects empty, blank and malformed paths and disagreeing order/direction (400)', async () => {
      for (const field of ['', '   ', '.v', 'v.', 'a..b', 'a. .b']) {
        await expectWeftError(store.tableQuery({ project_id: p, digest, sort_by: [{ field }] }, ALICE), 400, 'InvalidRequest');
      }
      await expectWeftError(
        store.tableQuery({ project_id: p, digest, sort_by: [{ field: 'v', order: 'asc', direction: 'desc' }] }, ALICE),
        400,
        'InvalidRequest',
      );
      await expectWeftError(
        store.tableQuery({ project_id: p, digest, sort_by: [{ field: 'v', order: 'up' as 'asc' }] }, ALICE),
        400,
        'InvalidRequest',
      );
      // Validated even when the table does not exist.
      await expectWeftError(
        store.tableQuery({ project_id: p, digest: 'unknown', sort_by: [{ field: '.' }] }, ALICE),
        400,
        'InvalidRequest',
      );
    });
  },
  { sqliteFile: true },
);

describeEachDialect(
  'tableQuery sort_by nested paths',
  (getDb) => {
    let store: TestStore;
    const p = newProject('tsort-nested');
    let digest = '';
    const rows: Record<string, unknown>[] = [
      { name: 'a', m: { score: 3, tags: ['x', 'b'] }, k: 1 }, //   0
      { name: 'b', m: { score: '12', tags: ['y', 'a'] }, k: 2 }, // 1
      { name: 'c', m: { score: 3, tags: ['z'] }, k: 1 }, //       2
      { name: 'd', m: 'not an object', k: 2 }, //                  3
      { name: 'e', m: { score: -0.5 }, k: 1 }, //                  4
      { name: 'f', 'a.b': 1, m: { '0': 'key', tags: [] }, k: 2 }, // 5
    ];
    beforeAll(async () => {
      store = storeOn(getDb());
      ({ digest } = await store.tableCreate({ table: { project_id: p, rows: rows } }, ALICE));
    });
    const sorted = async (sortBy: T.TableSortItem[]): Promise<string[]> =>
      (await store.tableQuery({ project_id: p, digest, sort_by: sortBy }, ALICE)).rows.map((r) => (r.val as { name: string }).name);

    it('follows dot paths into objects, numeric components into arrays only', async () => {
      expect(await sorted([{ field: 'm.score', order: 'desc' }])).toEqual(['b', 'a', 'c', 'e', 'd', 'f']);
      expect(await sorted([{ field: 'm.tags.1', order: 'asc' }])).toEqual(['b', 'a', 'c', 'd', 'e', 'f']);
      // A dotted key is not reachable: the dot splits.
      expect(await sorted([{ field: 'a.b', order: 'asc' }])).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    });

    it('an array index reaches into arrays only: it matches no object key and no scalar', async () => {
      // PostgreSQL's `'"str"'::jsonb -> 0` is "str" (scalars behave as one-element arrays there);
      // the dialect helpers guard array steps so both databases agree.
      expect(await sorted([{ field: 'm.0', order: 'asc' }])).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      expect(await sorted([{ field: 'name.0', order: 'desc' }])).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    });

    it('applies several sort items in turn', async () => {
      expect(
        await sorted([
          { field: 'k', order: 'desc' },
          { field: 'm.score', order: 'asc' },
        ]),
      ).toEqual(['b', 'd', 'f', 'e', 'a', 'c']);
      expect(await sorted([{ field: 'k' }, { field: 'name', direction: 'desc' }])).toEqual(['e', 'c', 'a', 'f', 'd', 'b']);
    });
  },
  { sqliteFile: true },
);
