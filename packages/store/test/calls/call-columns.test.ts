// columns, expand_columns and return_expanded_column_values (calls/stream_query and calls/query),
// and calls/query's one answer with its cap, on both databases.
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { MAX_UNLIMITED } from '../../src/calls/calls-query.ts';
import { describeEachDialect } from '../dialects.ts';
import { catalogue, ctx, endReq, startReq } from './call-fixtures.ts';

const lossless = { ...ctx, source: undefined };

describeEachDialect('call columns', (getDb) => {
  it('narrows each call to the columns asked, keeping what CallSchema requires', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const p = 'cols/narrow';
    const call = await store.callStart(startReq(p, { inputs: { question: 'q?', context: 'long text' }, attributes: { env: 'prod' } }), ctx);
    await store.callEnd(endReq(p, call.id, { output: { answer: 'a', tokens: 3 } }), ctx);
    const query = (columns: string[]) =>
      store.callsQuery({ project_id: p, columns }, ctx).then((r) => r.calls[0] as Record<string, unknown>);

    const narrow = await query(['inputs.question', 'output.answer', 'ended_at', 'wb_user_id']);
    expect(Object.keys(narrow).sort()).toEqual(
      ['attributes', 'ended_at', 'id', 'inputs', 'op_name', 'output', 'project_id', 'started_at', 'svc_user_id', 'trace_id'].sort(),
    );
    expect(narrow).toMatchObject({ attributes: {}, inputs: { question: 'q?' }, output: { answer: 'a' }, svc_user_id: 'alice' });
    // A whole root wins over a path into it; summary only when asked for.
    expect(await query(['inputs', 'inputs.question', 'summary'])).toMatchObject({
      inputs: { question: 'q?', context: 'long text' },
      summary: { weave: { status: 'success' } },
    });
    expect(Object.keys(await query([])).length).toBeGreaterThan(10); // empty: every field
    await expect(query(['nope'])).rejects.toMatchObject({ status: 400 });
    await expect(query(['ended_at.x'])).rejects.toMatchObject({ status: 400 });
  });

  it('expands refs of the project in expand_columns, unless return_expanded_column_values is false', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const p = 'cols/expand';
    const { digest } = await store.objCreate({ obj: { project_id: p, object_id: 'prompt', val: { system: 'Be brief.' } } }, lossless);
    const ref = `weave:///${p}/object/prompt:${digest}`;
    const missing = `weave:///${p}/object/prompt:nope`;
    const other = `weave:///cols/other/object/prompt:${digest}`;
    await store.callStart(startReq(p, { inputs: { prompt: ref, missing, other, plain: 'text' } }), ctx);
    const inputs = async (req: object) =>
      (await store.callsQuery({ project_id: p, ...req }, ctx)).calls[0]!.inputs as unknown as Record<string, unknown>;
    const expand = ['inputs.prompt', 'inputs.missing', 'inputs.other', 'inputs.plain', 'inputs.absent'];
    expect(await inputs({ expand_columns: expand })).toEqual({ prompt: { system: 'Be brief.' }, missing, other, plain: 'text' });
    expect(await inputs({ expand_columns: expand, return_expanded_column_values: false })).toEqual({
      prompt: ref,
      missing,
      other,
      plain: 'text',
    });
    expect(await inputs({ expand_columns: ['inputs.prompt'], columns: ['inputs.prompt'] })).toEqual({ prompt: { system: 'Be brief.' } });
  });

  it('answers calls/query whole, and refuses an unlimited answer past its cap', async () => {
    const db = getDb();
    const store = createStore({ db, catalogue });
    const p = 'cols/cap';
    const rows = Array.from({ length: MAX_UNLIMITED + 1 }, (_, i) => ({
      project_id: p,
      id: `c${String(i).padStart(6, '0')}`,
      trace_id: 't',
      op_name: 'op',
      started_at: '2025-06-03T09:41:27.512Z',
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db.kysely
        .insertInto('calls')
        .values(rows.slice(i, i + 500))
        .execute();
    await expect(store.callsQuery({ project_id: p }, ctx)).rejects.toMatchObject({ status: 400 });
    expect((await store.callsQuery({ project_id: p, limit: 3, offset: MAX_UNLIMITED - 1 }, ctx)).calls.map((c) => c.id)).toEqual([
      `c${String(MAX_UNLIMITED - 1).padStart(6, '0')}`,
      `c${String(MAX_UNLIMITED).padStart(6, '0')}`,
    ]);
    await db.kysely.deleteFrom('calls').where('project_id', '=', p).where('id', '=', 'c000000').execute();
    expect((await store.callsQuery({ project_id: p }, ctx)).calls).toHaveLength(MAX_UNLIMITED);
  });
});
