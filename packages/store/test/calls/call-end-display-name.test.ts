// The Weave TypeScript SDK repeats a call's display_name on its end. Weave's
// EndedCallSchemaForInsert has no such field (a plain pydantic model drops it), so Weave's server
// keeps the start's name; Weft does the same, on both databases, whether the end comes after its
// start, before it, alone or in a batch, and whatever other key Weave would ignore rides along.
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { callsOf, ctx, endReq, startReq, weaveOf } from './call-fixtures.ts';

const project = (name: string) => `dn/${name}`;

/** An end as the TS SDK 0.11.1 sends it: display_name, plus a key no Weave model defines. */
function sdkEnd(P: string, id: string, display_name: string): T.CallEndReq {
  return endReq(P, id, { display_name, weft_unknown_field: { nested: true } });
}

describeEachDialect("display_name on a call's end", (getDb) => {
  it("keeps the start's name: the end's display_name is ignored, as Weave ignores it", async () => {
    const calls = callsOf(getDb());
    const P = project('after');
    await calls.callStart(startReq(P, { id: 'c', display_name: 'From start' }), ctx);
    await calls.callEnd(sdkEnd(P, 'c', 'From end'), ctx);
    const { call } = await calls.callRead({ project_id: P, id: 'c' }, ctx);
    expect(call.display_name).toBe('From start');
    expect(weaveOf(call)).toMatchObject({ status: 'success', display_name: 'From start' });
    expect(call).not.toHaveProperty('weft_unknown_field');
  });

  it('gives an unnamed call no name from its end, which arrived first', async () => {
    const calls = callsOf(getDb());
    const P = project('first');
    await calls.callEnd(sdkEnd(P, 'c', 'From end'), ctx);
    await calls.callStart(startReq(P, { id: 'c' }), ctx);
    const { call } = await calls.callRead({ project_id: P, id: 'c' }, ctx);
    expect(call.display_name).toBeUndefined();
    expect(weaveOf(call)).toEqual({ status: 'success', trace_name: 'my_op', latency_ms: expect.any(Number) });
  });

  it('stores the same call with and without the extras, in a batch too', async () => {
    const calls = callsOf(getDb());
    const P = project('batch');
    await calls.callUpsertBatch(
      {
        batch: [
          { mode: 'start', req: startReq(P, { id: 'plain', trace_id: 't', display_name: 'Named' }) },
          { mode: 'end', req: endReq(P, 'plain', { output: { answer: 1 } }) },
          { mode: 'start', req: startReq(P, { id: 'extras', trace_id: 't', display_name: 'Named', weft_unknown_field: 1 }) },
          { mode: 'end', req: { end: { ...sdkEnd(P, 'extras', 'Other').end, output: { answer: 1 } } } },
        ],
      },
      ctx,
    );
    const read = async (id: string) => {
      const { call } = await calls.callRead({ project_id: P, id }, ctx);
      return { ...call, id: 'x' };
    };
    expect(await read('extras')).toEqual(await read('plain'));
  });

  it('leaves call/update the way to rename a call after its end', async () => {
    const calls = callsOf(getDb());
    const P = project('update');
    await calls.callStart(startReq(P, { id: 'c', display_name: 'From start' }), ctx);
    await calls.callEnd(sdkEnd(P, 'c', 'From end'), ctx);
    await calls.callUpdate({ project_id: P, call_id: 'c', display_name: 'Renamed' }, ctx);
    await calls.callEnd(sdkEnd(P, 'c', 'From a second end'), ctx);
    const { call } = await calls.callRead({ project_id: P, id: 'c' }, ctx);
    expect(call.display_name).toBe('Renamed');
  });
});
