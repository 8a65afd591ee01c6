// call/upsert_batch: items in order, one result each, all or nothing.
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { turnsDuring } from '../event-loop-turns.ts';
import { callsOf, ctx, endReq, startReq } from './call-fixtures.ts';

const startItem = (req: T.CallStartReq): T.CallBatchStartItem => ({ mode: 'start', req });
const endItem = (req: T.CallEndReq): T.CallBatchEndItem => ({ mode: 'end', req });

describeEachDialect('call/upsert_batch', (getDb) => {
  it('gives the event loop turns while it writes a large batch, and stores every item', async () => {
    const calls = callsOf(getDb());
    const p = 'ub/turns';
    const batch = Array.from({ length: 4000 }, (_, i) => startItem(startReq(p, { id: `c${i}`, trace_id: `t${i % 10}` })));
    const {
      value: { res },
      turns,
    } = await turnsDuring(() => calls.callUpsertBatch({ batch }, ctx));
    expect(res).toHaveLength(4000);
    expect(res[3999]).toEqual({ id: 'c3999', trace_id: 't9' });
    expect((await calls.callRead({ project_id: p, id: 'c2500' }, ctx)).call).toMatchObject({ id: 'c2500', trace_id: 't0' });
    expect(turns).toBeGreaterThan(2);
  });

  it('applies items in order and answers one result per item', async () => {
    const calls = callsOf(getDb());
    const p = 'ub/order';
    const { res } = await calls.callUpsertBatch(
      {
        batch: [
          startItem(startReq(p, { id: 'root', trace_id: 't' })),
          startItem(startReq(p, { id: 'gen', parent_id: 'root', trace_id: 't' })),
          startItem(startReq(p, { trace_id: 't' })),
          endItem(endReq(p, 'gen', { output: 1 })),
          endItem(endReq(p, 'gen', { output: 2 })), // a later item wins
          endItem(endReq(p, 'root')),
        ],
      },
      ctx,
    );
    expect(res).toHaveLength(6);
    expect(res.slice(0, 2)).toEqual([
      { id: 'root', trace_id: 't' },
      { id: 'gen', trace_id: 't' },
    ]);
    expect(res[2]).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), trace_id: 't' });
    expect(res.slice(3)).toEqual([{}, {}, {}]);
    expect((await calls.callRead({ project_id: p, id: 'gen' }, ctx)).call).toMatchObject({
      output: 2,
      parent_id: 'root',
      svc_user_id: 'alice',
    });
    expect((await calls.callRead({ project_id: p, id: 'root' }, ctx)).call.summary).toMatchObject({ weave: { status: 'success' } });
  });

  it('merges an end that comes before its start in the same batch', async () => {
    const calls = callsOf(getDb());
    const p = 'ub/reverse';
    await calls.callUpsertBatch({ batch: [endItem(endReq(p, 'c', { output: 'o' })), startItem(startReq(p, { id: 'c' }))] }, ctx);
    expect((await calls.callRead({ project_id: p, id: 'c' }, ctx)).call).toMatchObject({ output: 'o', op_name: 'my_op' });
  });

  it('answers an empty batch with no results', async () => {
    expect(await callsOf(getDb()).callUpsertBatch({ batch: [] }, ctx)).toEqual({ res: [] });
  });

  it('writes nothing when an item fails, even after earlier items were applied', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'ub/atomic';
    await calls.callStart(startReq(p, { id: 'before', inputs: { v: 'original' } }), ctx);
    await expect(
      calls.callUpsertBatch(
        {
          batch: [
            startItem(startReq(p, { id: 'new' })),
            startItem(startReq(p, { id: 'before', inputs: { v: 'changed' } })),
            endItem(endReq(p, 'before')),
            endItem(endReq(p, 'new', { ended_at: 'not a datetime' })),
          ],
        },
        ctx,
      ),
    ).rejects.toMatchObject({ status: 400 });
    const rows = await db.kysely.selectFrom('calls').select(['id', 'ended_at']).where('project_id', '=', p).execute();
    expect(rows).toEqual([{ id: 'before', ended_at: null }]);
    expect((await calls.callRead({ project_id: p, id: 'before' }, ctx)).call.inputs).toEqual({ v: 'original' });
  });

  it('rejects an unknown mode before writing anything', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'ub/mode';
    const bad = { mode: 'update', req: {} } as unknown as T.CallBatchEndItem;
    await expect(calls.callUpsertBatch({ batch: [startItem(startReq(p, { id: 'c' })), bad] }, ctx)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('batch[1].mode'),
    });
    expect(await db.kysely.selectFrom('calls').select('id').where('project_id', '=', p).execute()).toEqual([]);
  });

  it('stores a start followed by its end exactly as call/start then call/end would', async () => {
    const calls = callsOf(getDb());
    const fields = (i: number) => ({
      start: {
        id: `c${i}`,
        trace_id: 't',
        parent_id: i > 0 ? 'c0' : undefined,
        thread_id: 'th',
        inputs: { i, z: 1, a: 2 },
        wb_run_id: 'r',
      },
      end: { output: { answer: i }, summary: { usage: { m: { requests: 1, prompt_tokens: i } } }, exception: i === 3 ? 'boom' : undefined },
    });
    // 37 whole calls: more than one statement's worth, in chunks of several sizes.
    const pairs = Array.from({ length: 37 }, (_, i) => {
      const f = fields(i);
      return [startItem(startReq('ub/whole', f.start)), endItem(endReq('ub/whole', `c${i}`, f.end))];
    });
    const { res } = await calls.callUpsertBatch({ batch: pairs.flat() }, ctx);
    expect(res).toHaveLength(74);
    expect(res.slice(0, 2)).toEqual([{ id: 'c0', trace_id: 't' }, {}]);
    for (let i = 0; i < 37; i++) {
      const f = fields(i);
      await calls.callStart(startReq('ub/halves', f.start), ctx);
      await calls.callEnd(endReq('ub/halves', `c${i}`, f.end), ctx);
    }
    for (const i of [0, 3, 16, 36]) {
      const whole = (await calls.callRead({ project_id: 'ub/whole', id: `c${i}` }, ctx)).call;
      const halves = (await calls.callRead({ project_id: 'ub/halves', id: `c${i}` }, ctx)).call;
      expect({ ...whole, project_id: '' }).toEqual({ ...halves, project_id: '' });
      expect(whole).toMatchObject({ inputs: { i }, output: { answer: i }, ended_at: expect.any(String) });
    }
  });

  it('applies a call repeated in one batch in order, the last whole copy winning', async () => {
    const calls = callsOf(getDb());
    const p = 'ub/repeat';
    await calls.callUpsertBatch(
      {
        batch: [
          startItem(startReq(p, { id: 'c', inputs: { v: 1 } })),
          endItem(endReq(p, 'c', { output: 1 })),
          startItem(startReq(p, { id: 'c', inputs: { v: 2 } })),
          endItem(endReq(p, 'c', { output: 2 })),
        ],
      },
      ctx,
    );
    expect((await calls.callRead({ project_id: p, id: 'c' }, ctx)).call).toMatchObject({ inputs: { v: 2 }, output: 2 });
  });

  it("refuses an end whose repeated trace_id is not its start's, writing nothing", async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'ub/mismatch';
    await expect(
      calls.callUpsertBatch(
        { batch: [startItem(startReq(p, { id: 'c', trace_id: 't' })), endItem(endReq(p, 'c', { trace_id: 'other' }))] },
        ctx,
      ),
    ).rejects.toMatchObject({ status: 422 });
    expect(await db.kysely.selectFrom('calls').select('id').where('project_id', '=', p).execute()).toEqual([]);
  });
});
