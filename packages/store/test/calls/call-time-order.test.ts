// A call cannot end before it starts, whichever of start and end arrives first (and from whichever
// replica): the database keeps the rule, so it holds for call/start, call/end and upsert batches.
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { createStore } from '../../src/create-store.ts';
import type { Db } from '../../src/db/index.ts';
import { catalogue, ctx, endReq, startReq, T0 } from './call-fixtures.ts';

// Through createStore: database refusals become catalogue errors there.
const callsOf = (db: Db) => createStore({ db, catalogue });

const BEFORE = '2025-06-03T09:41:26.000Z'; // T0 - 1.512 s

describeEachDialect('call time order', (getDb) => {
  const refusal = { status: 422, detail: [{ loc: ['body', 'ended_at'], msg: expect.stringContaining('before'), type: 'value_error' }] };

  it('refuses an end before the start it follows, and keeps the call open', async () => {
    const calls = callsOf(getDb());
    const { id } = await calls.callStart(startReq('order/a'), ctx);
    await expect(calls.callEnd(endReq('order/a', id, { ended_at: BEFORE }), ctx)).rejects.toMatchObject(refusal);
    const { call } = await calls.callRead({ project_id: 'order/a', id }, ctx);
    expect(call.ended_at ?? null).toBeNull();
    // The same instant is a zero-length call, which is fine.
    await calls.callEnd(endReq('order/a', id, { ended_at: T0 }), ctx);
    expect((await calls.callRead({ project_id: 'order/a', id }, ctx)).call.ended_at).toBe(T0);
  });

  it('refuses a start after the end that arrived first', async () => {
    const calls = callsOf(getDb());
    const id = '0197331c-0000-7000-8000-00000000e0e1';
    await calls.callEnd(endReq('order/b', id, { ended_at: BEFORE }), ctx);
    await expect(calls.callStart(startReq('order/b', { id, trace_id: id }), ctx)).rejects.toMatchObject(refusal);
  });

  it('refuses a whole upsert batch holding such a pair, writing none of it', async () => {
    const calls = callsOf(getDb());
    const id = '0197331c-0000-7000-8000-00000000e0e2';
    const other = '0197331c-0000-7000-8000-00000000e0e3';
    await expect(
      calls.callUpsertBatch(
        {
          batch: [
            { mode: 'start', req: startReq('order/c', { id: other, trace_id: other }) },
            { mode: 'start', req: startReq('order/c', { id, trace_id: id }) },
            { mode: 'end', req: endReq('order/c', id, { ended_at: BEFORE }) },
          ],
        },
        ctx,
      ),
    ).rejects.toMatchObject(refusal);
    await expect(calls.callRead({ project_id: 'order/c', id: other }, ctx)).rejects.toMatchObject({ status: 404 });
  });
});
