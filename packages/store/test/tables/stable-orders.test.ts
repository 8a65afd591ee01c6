// Stable order of table/query: rows that tie on every sort key (equal values, a missing path,
// identical rows listed several times) come back in table position order, the unique tie-break,
// whether a page is sorted directly or read from the cached order, read after read and page by page.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { tableMethods } from '../../src/tables/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, newProject } from '../objects/helpers.ts';

// Three chunks of a cached order. Every row has g = "same"; every seventh is the same row.
const ROWS = Array.from({ length: 300 }, (_, i) => (i % 7 === 3 ? { g: 'same' } : { g: 'same', n: 300 - i }));
const POSITIONS = ROWS.map((_, i) => i);

const SORTS: [string, T.TableSortItem[]][] = [
  ['an equal value, ascending', [{ field: 'g', direction: 'asc' }]],
  ['an equal value, descending', [{ field: 'g', direction: 'desc' }]],
  ['a path no row has', [{ field: 'missing.path', direction: 'desc' }]],
  [
    'two equal keys',
    [
      { field: 'g', direction: 'desc' },
      { field: 'g', direction: 'asc' },
    ],
  ],
];

describeEachDialect('stable orders: table/query', (getDb) => {
  const p = newProject('stable-table');
  let digest = '';
  const stores = () => ({
    // 300 rows: sorted directly at every offset.
    direct: tableMethods({ db: getDb() }),
    // Every page past the first from the cached order, built by the first such page.
    cached: tableMethods({ db: getDb(), sortCache: { fromOffset: 1, minRows: 10 } }),
  });

  beforeAll(async () => {
    ({ digest } = await stores().direct.tableCreate({ table: { project_id: p, rows: ROWS } }, ALICE));
  });

  for (const [label, sort_by] of SORTS) {
    for (const kind of ['direct', 'cached'] as const) {
      it(`${label} (${kind}): table position order on every read and across pages`, async () => {
        const store = stores()[kind];
        const positions = async (req: Omit<T.TableQueryReq, 'project_id' | 'digest'>) =>
          (await store.tableQuery({ project_id: p, digest, sort_by, ...req }, ALICE)).rows.map((r) => r.original_index);
        for (let read = 0; read < 2; read++) {
          const pages: (number | undefined)[] = [];
          // 70 does not divide a chunk (128): pages start and end inside chunks.
          for (let offset = 0; offset < ROWS.length; offset += 70) pages.push(...(await positions({ offset, limit: 70 })));
          expect(pages).toEqual(POSITIONS);
          expect(await positions({})).toEqual(POSITIONS);
          expect(await positions({ offset: 125, limit: 10 })).toEqual(POSITIONS.slice(125, 135));
        }
      });
    }
  }

  it('filtered to one duplicated row: its positions in order, sorted or not', async () => {
    const { direct } = stores();
    const all = await direct.tableQuery({ project_id: p, digest, limit: 4 }, ALICE);
    const dup = all.rows.find((r) => r.original_index === 3)!.digest;
    const expected = POSITIONS.filter((i) => i % 7 === 3);
    for (const sort_by of [undefined, [{ field: 'g', direction: 'desc' as const }]]) {
      const rows = await direct.tableQuery({ project_id: p, digest, sort_by, filter: { row_digests: [dup] } }, ALICE);
      expect(rows.rows.map((r) => r.original_index)).toEqual(expected);
      const page = await direct.tableQuery({ project_id: p, digest, sort_by, filter: { row_digests: [dup] }, offset: 5, limit: 5 }, ALICE);
      expect(page.rows.map((r) => r.original_index)).toEqual(expected.slice(5, 10));
    }
  });
});
