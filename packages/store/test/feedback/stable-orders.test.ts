// Stable order of feedback/query: feedback written in one batch shares its created_at, and rows
// that tie on every requested sort field come back in id order (the unique tie-break), read after
// read and across pages, with rows lacking a sorted value last in both databases.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { callRef, feedbackMethods } from '../../src/feedback/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { expectOneOrder } from '../stable-order-checks.ts';

const ctx = { user: 'alice' };
const P = 'stable/feedback';
/** id → creator. Written in this order, which is not id order. */
const WRITTEN: [string, string | null][] = [
  ['f4', 'bob'],
  ['f1', null],
  ['late', null],
  ['f3', null],
  ['f0', 'bob'],
  ['early', 'amy'],
  ['f2', 'amy'],
];
const TIED = ['f0', 'f1', 'f2', 'f3', 'f4'];

describeEachDialect('stable orders: feedback/query', (getDb) => {
  const fb = () => feedbackMethods({ db: getDb() });
  const ids = async (req: Partial<T.FeedbackQueryReq> = {}) =>
    (await fb().feedbackQuery({ project_id: P, ...req }, ctx)).result.map((r) => r.id);

  beforeAll(async () => {
    const batch = WRITTEN.map(([id, creator]) => ({
      id,
      project_id: P,
      weave_ref: callRef(P, 'c1'),
      creator,
      feedback_type: 'wandb.note.1',
      payload: { note: id },
    }));
    // One batch, one created_at; then two rows moved off it, so the tied run has neighbours.
    await fb().feedbackBatchCreate({ batch }, ctx);
    const db = getDb();
    for (const [id, created_at] of [
      ['early', '2020-01-01T00:00:00.000Z'],
      ['late', '2999-01-01T00:00:00.000Z'],
    ] as const) {
      await db.kysely.updateTable('feedback').set({ created_at }).where('project_id', '=', P).where('id', '=', id).execute();
    }
  });

  const cases: [string, T.FeedbackSortItem[] | undefined, string[]][] = [
    ['default (created_at, then id)', undefined, ['early', ...TIED, 'late']],
    ['created_at desc', [{ field: 'created_at', direction: 'desc' }], ['late', ...TIED, 'early']],
    ['feedback_type (all equal)', [{ field: 'feedback_type', direction: 'desc' }], ['early', 'f0', 'f1', 'f2', 'f3', 'f4', 'late']],
    ['weave_ref (all equal)', [{ field: 'weave_ref', direction: 'asc' }], ['early', 'f0', 'f1', 'f2', 'f3', 'f4', 'late']],
    // Rows without a creator last in either direction; ties by id inside each creator.
    ['creator asc', [{ field: 'creator', direction: 'asc' }], ['early', 'f2', 'f0', 'f4', 'f1', 'f3', 'late']],
    ['creator desc', [{ field: 'creator', direction: 'desc' }], ['f0', 'f4', 'early', 'f2', 'f1', 'f3', 'late']],
    ['id desc', [{ field: 'id', direction: 'desc' }], ['late', 'f4', 'f3', 'f2', 'f1', 'f0', 'early']],
  ];
  for (const [label, sort_by, expected] of cases) {
    it(`${label}: one order on every read and across pages`, async () => {
      await expectOneOrder(ids, sort_by, expected);
      expect(await ids({ sort_by, limit: 3, offset: 2 })).toEqual(expected.slice(2, 5));
      expect(await ids({ sort_by, offset: 4 })).toEqual(expected.slice(4));
    });
  }
});
