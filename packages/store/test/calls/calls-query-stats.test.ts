// callsQueryStats counts what callsStreamQuery answers for the same filter (deleted calls and other
// projects left out), and with a limit stops counting past it.
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { describeEachDialect } from '../dialects.ts';
import { catalogue, ctx, startReq } from './call-fixtures.ts';

describeEachDialect('calls query stats', (getDb) => {
  it('counts the calls the same filter streams, and stops at a limit', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const p = 'stats/calls';
    const root = await store.callStart(startReq(p), ctx);
    for (let i = 0; i < 5; i++) await store.callStart(startReq(p, { parent_id: root.id, trace_id: root.trace_id }), ctx);
    const deleted = await store.callStart(startReq(p), ctx);
    await getDb()
      .kysely.updateTable('calls')
      .set({ deleted_at: '2026-01-01T00:00:00.000Z' })
      .where('project_id', '=', p)
      .where('id', '=', deleted.id)
      .execute();
    await store.callStart(startReq('stats/other'), ctx);

    const streamed = async (filter: object) => {
      let n = 0;
      for await (const _ of store.callsStreamQuery({ project_id: p, filter }, ctx) as AsyncIterable<unknown>) n++;
      return n;
    };
    for (const filter of [{}, { trace_roots_only: true }, { parent_ids: [root.id] }, { call_ids: ['nope'] }]) {
      expect((await store.callsQueryStats({ project_id: p, filter }, ctx)).count, JSON.stringify(filter)).toBe(await streamed(filter));
    }
    expect(await store.callsQueryStats({ project_id: p }, ctx)).toEqual({ count: 6 });
    expect(await store.callsQueryStats({ project_id: p, limit: 4 }, ctx)).toEqual({ count: 4, has_more: true });
    expect(await store.callsQueryStats({ project_id: p, limit: 6 }, ctx)).toEqual({ count: 6, has_more: false });
  });
});
