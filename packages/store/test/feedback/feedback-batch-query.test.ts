// feedback/batch/create (the client's ids, all or none, retries idempotent) and feedback/query
// (Weave's rows, its query language over feedback fields, sort, paging, total_count).
import { expect, it } from 'vitest';
import { nowIso } from '../../src/db/index.ts';
import { callRef, feedbackMethods } from '../../src/feedback/index.ts';
import { describeEachDialect } from '../dialects.ts';

const ctx = { user: 'alice' };
const P = 'acme/fbq';
const item = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  project_id: P,
  weave_ref: callRef(P, 'c1'),
  creator: null,
  feedback_type: 'wandb.note.1',
  payload: { note: `note ${id}` },
  annotation_ref: null,
  runnable_ref: null,
  call_ref: null,
  trigger_ref: null,
  wb_user_id: null,
  ...fields,
});

describeEachDialect('feedback batch create and query', (getDb) => {
  it("keeps the client's ids, writes all or none, and answers a retry as before", async () => {
    const fb = feedbackMethods({ db: getDb() });
    const { res } = await fb.feedbackBatchCreate(
      { batch: [item('b1'), item('b2', { feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } })] },
      ctx,
    );
    expect(res.map((r) => [r.id, r.wb_user_id, r.svc_user_id])).toEqual([
      ['b1', 'alice', 'alice'],
      ['b2', 'alice', 'alice'],
    ]);
    // A retry of b1 (same content) is idempotent and keeps its first time.
    const again = await fb.feedbackBatchCreate({ batch: [item('b1')] }, { user: 'bob' });
    expect(again.res[0]).toMatchObject({ id: 'b1', created_at: res[0]!.created_at, wb_user_id: 'alice' });
    // The same id with other content: 409, and the batch's other item is not written either.
    await expect(fb.feedbackBatchCreate({ batch: [item('b3'), item('b1', { payload: { note: 'changed' } })] }, ctx)).rejects.toMatchObject({
      status: 409,
    });
    // An invalid item (a reaction without an emoji) refuses the whole batch before any write.
    await expect(
      fb.feedbackBatchCreate({ batch: [item('b4'), item('b5', { feedback_type: 'wandb.reaction.1', payload: {} })] }, ctx),
    ).rejects.toMatchObject({
      status: 400,
    });
    await expect(fb.feedbackBatchCreate({ batch: [item('b6'), item('b6')] }, ctx)).rejects.toMatchObject({ status: 400 });
    const { result } = await fb.feedbackQuery({ project_id: P }, ctx);
    expect(result.map((r) => r.id)).toEqual(['b1', 'b2']);
  });

  it("answers Weave's rows, filtered, sorted, paged and counted", async () => {
    const db = getDb();
    const fb = feedbackMethods({ db });
    const p = 'acme/fbq2';
    const at = (i: number) => `2026-01-0${i}T00:00:00.000Z`;
    const rows = [
      { id: 'n1', feedback_type: 'wandb.note.1', payload: { note: 'Wrong policy' }, weave_ref: callRef(p, 'c1') },
      { id: 'r1', feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' }, weave_ref: callRef(p, 'c1') },
      {
        id: 's1',
        feedback_type: 'wandb.runnable.judge',
        payload: { output: { score: 0.9 } },
        weave_ref: callRef(p, 'c2'),
        runnable_ref: `weave:///${p}/op/judge:abc`,
        call_ref: callRef(p, 'j1'),
      },
      {
        id: 's2',
        feedback_type: 'wandb.runnable.judge',
        payload: { output: { score: 0.4 } },
        weave_ref: callRef(p, 'c1'),
        runnable_ref: `weave:///${p}/op/judge:abc`,
        call_ref: callRef(p, 'j2'),
      },
      { id: 'gone', feedback_type: 'wandb.note.1', payload: { note: 'deleted' }, weave_ref: callRef(p, 'c1') },
    ];
    await fb.feedbackBatchCreate({ batch: rows.map((r) => ({ ...item(r.id), ...r, project_id: p })) }, ctx);
    for (const [i, r] of rows.entries())
      await db.kysely
        .updateTable('feedback')
        .set({ created_at: at(i + 1) })
        .where('project_id', '=', p)
        .where('id', '=', r.id)
        .execute();
    await db.kysely.updateTable('feedback').set({ deleted_at: nowIso() }).where('project_id', '=', p).where('id', '=', 'gone').execute();
    const ids = async (req: Record<string, unknown>) => {
      const res = await fb.feedbackQuery({ project_id: p, ...req }, ctx);
      return [res.result.map((r) => r.id), res.total_count];
    };

    const all = await fb.feedbackQuery({ project_id: p }, ctx);
    expect(all.total_count).toBe(4);
    expect(all.result[0]).toEqual({
      id: 'n1',
      project_id: p,
      weave_ref: callRef(p, 'c1'),
      wb_user_id: 'alice',
      creator: null,
      created_at: at(1),
      feedback_type: 'wandb.note.1',
      payload: { note: 'Wrong policy' },
      annotation_ref: null,
      runnable_ref: null,
      call_ref: null,
      trigger_ref: null,
    });
    const eq = (field: string, value: unknown) => ({ $eq: [{ $getField: field }, { $literal: value }] });
    expect(await ids({ query: { $expr: eq('weave_ref', callRef(p, 'c1')) } })).toEqual([['n1', 'r1', 's2'], 3]);
    expect(await ids({ query: { $expr: { $gt: [{ $getField: 'payload.output.score' }, { $literal: 0.5 }] } } })).toEqual([['s1'], 1]);
    expect(
      await ids({
        query: { $expr: { $contains: { input: { $getField: 'payload.note' }, substr: { $literal: 'POLICY' }, case_insensitive: true } } },
      }),
    ).toEqual([['n1'], 1]);
    expect(await ids({ query: { $expr: { $gte: [{ $getField: 'created_at' }, { $literal: at(3) }] } } })).toEqual([['s1', 's2'], 2]);
    expect(await ids({ query: { $expr: eq('wb_user_id', 'alice') }, limit: 2, offset: 1 })).toEqual([['r1', 's1'], 4]);
    expect(
      await ids({
        sort_by: [
          { field: 'feedback_type', direction: 'desc' },
          { field: 'created_at', direction: 'desc' },
        ],
      }),
    ).toEqual([['s2', 's1', 'r1', 'n1'], 4]);
    const narrow = await fb.feedbackQuery({ project_id: p, fields: ['id', 'payload'], limit: 1 }, ctx);
    expect(narrow.result).toEqual([{ id: 'n1', payload: { note: 'Wrong policy' } }]);
    await expect(fb.feedbackQuery({ project_id: p, query: { $expr: eq('nope', 1) as never } }, ctx)).rejects.toMatchObject({ status: 400 });
    expect(await ids({ query: { $expr: eq('id', 'n1') }, project_id: 'acme/other' })).toEqual([[], 0]);
  });
});
