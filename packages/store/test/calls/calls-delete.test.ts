// calls/delete: a call goes with all its descendants, as in Weave; reads stop showing them; other
// calls, other projects and the calls' feedback stay; a second delete deletes nothing.
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { describeEachDialect } from '../dialects.ts';
import { catalogue, ctx, startReq } from './call-fixtures.ts';

describeEachDialect('calls delete', (getDb) => {
  const visible = async (store: ReturnType<typeof createStore>, project_id: string) => {
    const ids: string[] = [];
    for await (const call of store.callsStreamQuery({ project_id }, ctx) as AsyncIterable<{ id: string }>) ids.push(call.id);
    return ids.sort();
  };

  it('deletes a call with its children and grandchildren, and nothing else', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const p = 'delete/tree';
    const start = (fields: Record<string, unknown> = {}) => store.callStart(startReq(p, fields), ctx);
    const root = await start();
    const child = await start({ parent_id: root.id, trace_id: root.trace_id });
    const grandchild = await start({ parent_id: child.id, trace_id: root.trace_id });
    const sibling = await start({ parent_id: root.id, trace_id: root.trace_id });
    const other = await start();
    const otherChild = await start({ parent_id: other.id, trace_id: other.trace_id });
    // The same id in another project is another call.
    await store.callStart(startReq('delete/elsewhere', { id: child.id }), ctx);
    await store.feedbackCreate(
      { project_id: p, weave_ref: `weave:///${p}/call/${child.id}`, feedback_type: 'wandb.note.1', payload: { note: 'keep me' } },
      ctx,
    );

    expect(await store.callsDelete({ project_id: p, call_ids: [child.id] }, ctx)).toEqual({ num_deleted: 2 });
    expect(await visible(store, p)).toEqual([root.id, sibling.id, other.id, otherChild.id].sort());
    await expect(store.callRead({ project_id: p, id: grandchild.id }, ctx)).rejects.toMatchObject({ status: 404 });
    expect(await store.callsQueryStats({ project_id: p }, ctx)).toEqual({ count: 4 });

    // The root takes the rest of its tree; the already deleted part is not counted again.
    expect(await store.callsDelete({ project_id: p, call_ids: [root.id, 'unknown-id', root.id] }, ctx)).toEqual({ num_deleted: 2 });
    expect(await visible(store, p)).toEqual([other.id, otherChild.id].sort());
    expect(await store.callsDelete({ project_id: p, call_ids: [root.id, child.id] }, ctx)).toEqual({ num_deleted: 0 });

    expect(await visible(store, 'delete/elsewhere')).toEqual([child.id]);
    const feedback = await getDb().kysely.selectFrom('feedback').select('payload').where('project_id', '=', p).execute();
    expect(feedback).toHaveLength(1);
  });

  it('follows long chains and many children in batches, and stops on a parent cycle', async () => {
    const db = getDb();
    const store = createStore({ db, catalogue });
    const p = 'delete/big';
    const root = await store.callStart(startReq(p), ctx);
    // 1,200 children (more than one batch of updates) and a chain 300 deep under the first one.
    const rows = Array.from({ length: 1200 }, (_, i) => ({ project_id: p, id: `c${i}`, parent_id: root.id, trace_id: root.trace_id }));
    for (let i = 0; i < 300; i++)
      rows.push({ project_id: p, id: `d${i}`, parent_id: i === 0 ? 'c0' : `d${i - 1}`, trace_id: root.trace_id });
    for (let i = 0; i < rows.length; i += 200)
      await db.kysely
        .insertInto('calls')
        .values(rows.slice(i, i + 200).map((r) => ({ ...r, op_name: 'op', started_at: '2025-06-03T09:41:27.512Z' })))
        .execute();
    expect(await store.callsDelete({ project_id: p, call_ids: [root.id] }, ctx)).toEqual({ num_deleted: 1501 });
    expect(await store.callsQueryStats({ project_id: p }, ctx)).toEqual({ count: 0 });

    // Parent ids are the client's: a cycle must not make the recursion run forever.
    await db.kysely
      .insertInto('calls')
      .values([
        { project_id: p, id: 'x', parent_id: 'y', trace_id: 't', op_name: 'op', started_at: '2025-06-03T09:41:27.512Z' },
        { project_id: p, id: 'y', parent_id: 'x', trace_id: 't', op_name: 'op', started_at: '2025-06-03T09:41:27.512Z' },
      ])
      .execute();
    expect(await store.callsDelete({ project_id: p, call_ids: ['x'] }, ctx)).toEqual({ num_deleted: 2 });
  });
});
