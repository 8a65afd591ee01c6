// Stable order of annotation_queues/query: queues that tie on created_at (and on the requested
// sort field) come back in id order (the unique tie-break), read after read and across pages,
// whatever order they were written in.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { jsonParam } from '../../src/db/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { expectOneOrder } from '../stable-order-checks.ts';
import { all, ctx, queuesOf } from './queue-fixtures.ts';

const P = 'stable/queues';
const SAME = '2025-06-03T09:00:00.000Z';
/** id → created_at, written in this order, which is not id order. */
const WRITTEN: [string, string][] = [
  ['q4', SAME],
  ['q1', SAME],
  ['zz-late', '2026-01-01T00:00:00.000Z'],
  ['q3', SAME],
  ['q0', SAME],
  ['aa-early', '2024-01-01T00:00:00.000Z'],
  ['q2', SAME],
];
const TIED = ['q0', 'q1', 'q2', 'q3', 'q4'];
const BY_ID = WRITTEN.map(([id]) => id).sort();

describeEachDialect('stable orders: annotation_queues/query', (getDb) => {
  const ids = async (req: Partial<T.AnnotationQueuesQueryReq> = {}) =>
    (await all(queuesOf(getDb()).annotationQueuesQuery({ project_id: P, ...req }, ctx))).map((q) => q.id);

  beforeAll(async () => {
    // Written directly: annotationQueueCreate's ids increase, so they could not come in another order.
    const db = getDb();
    for (const [id, created_at] of WRITTEN) {
      await db.kysely
        .insertInto('annotation_queues')
        .values({
          project_id: P,
          id,
          name: 'Same queue',
          description: '',
          scorer_refs: jsonParam(db, []),
          created_at,
          created_by: 'alice',
          updated_at: SAME,
          deleted_at: null,
        })
        .execute();
    }
  });

  const cases: [string, T.AnnotationQueueSortItem[] | undefined, string[]][] = [
    ['default (created_at desc, then id)', undefined, ['zz-late', ...TIED, 'aa-early']],
    ['created_at asc', [{ field: 'created_at', direction: 'asc' }], ['aa-early', ...TIED, 'zz-late']],
    ['name (all equal)', [{ field: 'name', direction: 'desc' }], BY_ID],
    ['updated_at (all equal)', [{ field: 'updated_at', direction: 'asc' }], BY_ID],
    ['id desc', [{ field: 'id', direction: 'desc' }], [...BY_ID].reverse()],
  ];
  for (const [label, sort_by, expected] of cases) {
    it(`${label}: one order on every read and across pages`, async () => {
      await expectOneOrder(ids, sort_by, expected);
      // The name filter keeps the order.
      expect(await ids({ sort_by, name: 'same', limit: 3, offset: 2 })).toEqual(expected.slice(2, 5));
    });
  }
});
