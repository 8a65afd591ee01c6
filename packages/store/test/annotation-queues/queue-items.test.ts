// Queue items, progress, removal and stats, with Weave's rules (duplicates, unknown calls, sort
// defaults, position, transitions), on both databases.
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { catalogue, ctx, endReq, startReq } from '../calls/call-fixtures.ts';
import { describeEachDialect } from '../dialects.ts';

const bob = { ...ctx, user: 'bob' };

describeEachDialect('annotation queue items', (getDb) => {
  async function setup(p: string, n: number) {
    const store = createStore({ db: getDb(), catalogue });
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `c${i}`;
      await store.callStart(
        startReq(p, { id, trace_id: `t${i}`, op_name: i % 2 ? 'odd' : 'even', started_at: `2025-01-01T00:00:0${9 - i}.000Z` }),
        ctx,
      );
      await store.callEnd(endReq(p, id), ctx);
      ids.push(id);
    }
    const { id: queue_id } = await store.annotationQueueCreate({ project_id: p, name: 'q', scorer_refs: [] }, ctx);
    return { store, ids, queue_id };
  }

  it('adds calls by id or ref; duplicates counted, unknown and deleted calls skipped', async () => {
    const p = 'qi/add';
    const { store, queue_id } = await setup(p, 4);
    await store.callsDelete({ project_id: p, call_ids: ['c3'] }, ctx);
    expect(
      await store.annotationQueueAddCalls(
        { project_id: p, queue_id, call_ids: ['c0', `weave:///${p}/call/c1`], display_fields: ['inputs'] },
        ctx,
      ),
    ).toEqual({
      added_count: 2,
      duplicates: 0,
    });
    expect(
      await store.annotationQueueAddCalls({ project_id: p, queue_id, call_ids: ['c0', 'c1', 'c2', 'c3', 'nope'], display_fields: [] }, ctx),
    ).toEqual({
      added_count: 1,
      duplicates: 2,
    });
    const { items } = await store.annotationQueueItemsQuery({ project_id: p, queue_id }, ctx);
    expect(items.map((i) => i.call_id)).toEqual(['c0', 'c1', 'c2']);
    expect(items[0]).toMatchObject({
      project_id: p,
      queue_id,
      call_id: 'c0',
      call_started_at: '2025-01-01T00:00:09.000Z',
      call_op_name: 'even',
      call_trace_id: 't0',
      display_fields: ['inputs'],
      added_by: 'alice',
      annotation_state: 'unstarted',
      annotator_user_id: '',
      created_by: 'alice',
    });
    expect(items[0]).not.toHaveProperty('position_in_queue');
    await expect(
      store.annotationQueueAddCalls({ project_id: p, queue_id, call_ids: ['weave:///other/p/call/c0'] }, ctx),
    ).rejects.toMatchObject({ status: 400 });
    await expect(store.annotationQueueAddCalls({ project_id: 'qi/other', queue_id, call_ids: ['c0'] }, ctx)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('sorts, filters, pages and numbers items as Weave does', async () => {
    const p = 'qi/query';
    const { store, ids, queue_id } = await setup(p, 5);
    for (const id of ids) await store.annotationQueueAddCalls({ project_id: p, queue_id, call_ids: [id] }, ctx);
    const q = (extra: object) => store.annotationQueueItemsQuery({ project_id: p, queue_id, ...extra }, ctx).then((r) => r.items);
    expect((await q({})).map((i) => i.call_id)).toEqual(ids);
    expect((await q({ sort_by: [{ field: 'call_started_at', direction: 'asc' }] })).map((i) => i.call_id)).toEqual([...ids].reverse());
    expect((await q({ sort_by: [{ field: 'call_op_name', direction: 'desc' }], limit: 2, offset: 1 })).map((i) => i.call_id)).toEqual([
      'c3',
      'c0',
    ]);
    expect((await q({ filter: { call_op_name: 'even' } })).map((i) => i.call_id)).toEqual(['c0', 'c2', 'c4']);

    const [first, second] = await q({ limit: 2 });
    await store.annotationQueueItemProgressUpdate({ project_id: p, queue_id, item_id: first!.id, annotation_state: 'completed' }, ctx);
    await store.annotationQueueItemProgressUpdate({ project_id: p, queue_id, item_id: second!.id, annotation_state: 'in_progress' }, bob);
    const unstarted = await q({ filter: { annotation_states: ['unstarted'] }, include_position: true });
    expect(unstarted.map((i) => [i.call_id, i.position_in_queue])).toEqual([
      ['c2', 3],
      ['c3', 4],
      ['c4', 5],
    ]);
    // Without a state filter a position is the offset plus the place in the page, in any order;
    // with other filters, counted among the items they keep.
    const numbered = (extra: object) => q({ include_position: true, ...extra }).then((r) => r.map((i) => [i.call_id, i.position_in_queue]));
    expect(await numbered({ limit: 2, offset: 2 })).toEqual([
      ['c2', 3],
      ['c3', 4],
    ]);
    expect(await numbered({ sort_by: [{ field: 'call_op_name', direction: 'desc' }], limit: 2, offset: 1 })).toEqual([
      ['c3', 2],
      ['c0', 3],
    ]);
    expect(await numbered({ filter: { call_op_name: 'even' }, offset: 1 })).toEqual([
      ['c2', 2],
      ['c4', 3],
    ]);
    const started = await q({ filter: { annotation_states: ['completed', 'in_progress'] } });
    expect(started.map((i) => [i.call_id, i.annotation_state, i.annotator_user_id])).toEqual([
      ['c0', 'completed', 'alice'],
      ['c1', 'in_progress', 'bob'],
    ]);
  });

  it('moves progress per annotator: in_progress only first, completed/skipped once, else 400', async () => {
    const p = 'qi/progress';
    const { store, queue_id } = await setup(p, 1);
    await store.annotationQueueAddCalls({ project_id: p, queue_id, call_ids: ['c0'] }, ctx);
    const [item] = (await store.annotationQueueItemsQuery({ project_id: p, queue_id }, ctx)).items;
    const move = (annotation_state: string, who = ctx) =>
      store.annotationQueueItemProgressUpdate({ project_id: p, queue_id, item_id: item!.id, annotation_state }, who);
    expect((await move('in_progress')).item).toMatchObject({ annotation_state: 'in_progress', annotator_user_id: 'alice' });
    await expect(move('in_progress')).rejects.toMatchObject({ status: 400 });
    expect((await move('completed')).item).toMatchObject({ annotation_state: 'completed' });
    await expect(move('completed')).rejects.toMatchObject({ status: 400 });
    await expect(move('skipped')).rejects.toMatchObject({ status: 400 });
    await expect(move('unstarted')).rejects.toMatchObject({ status: 400 });
    expect((await move('skipped', bob)).item).toMatchObject({ annotation_state: 'skipped', annotator_user_id: 'bob' });
    await expect(
      store.annotationQueueItemProgressUpdate({ project_id: p, queue_id, item_id: 'nope', annotation_state: 'completed' }, ctx),
    ).rejects.toMatchObject({
      status: 400,
    });
  });

  it('counts items per state and removes items', async () => {
    const p = 'qi/stats';
    const { store, ids, queue_id } = await setup(p, 4);
    await store.annotationQueueAddCalls({ project_id: p, queue_id, call_ids: ids }, ctx);
    const items = (await store.annotationQueueItemsQuery({ project_id: p, queue_id }, ctx)).items;
    const move = (i: number, annotation_state: string, who = ctx) =>
      store.annotationQueueItemProgressUpdate({ project_id: p, queue_id, item_id: items[i]!.id, annotation_state }, who);
    await move(0, 'completed');
    await move(0, 'skipped', bob);
    await move(1, 'skipped');
    await move(2, 'in_progress');
    expect(await store.annotationQueuesStats({ project_id: p, queue_ids: [queue_id, 'unknown'] }, ctx)).toEqual({
      stats: [
        { queue_id, total_items: 4, completed_items: 2, in_progress_items: 1, skipped_items: 1 },
        { queue_id: 'unknown', total_items: 0, completed_items: 0, in_progress_items: 0, skipped_items: 0 },
      ],
    });
    expect(await store.annotationQueuesStats({ project_id: p, queue_ids: [] }, ctx)).toEqual({ stats: [] });
    expect(await store.annotationQueueItemsDelete({ project_id: p, queue_id, item_ids: [items[3]!.id, 'nope'] }, ctx)).toEqual({
      num_deleted: 1,
    });
    expect((await store.annotationQueuesStats({ project_id: p, queue_ids: [queue_id] }, ctx)).stats[0]!.total_items).toBe(3);
    // A removed item's call may come back as a new item.
    expect(await store.annotationQueueAddCalls({ project_id: p, queue_id, call_ids: [ids[3]!] }, ctx)).toEqual({
      added_count: 1,
      duplicates: 0,
    });
    // A deleted queue's items are gone with it.
    await store.annotationQueueDelete({ project_id: p, queue_id }, ctx);
    await expect(store.annotationQueueItemsQuery({ project_id: p, queue_id }, ctx)).rejects.toMatchObject({ status: 404 });
  });

  it('keeps one item per call when the same calls are added concurrently', async () => {
    const p = 'qi/race';
    const { store, ids, queue_id } = await setup(p, 3);
    const answers = await Promise.all([1, 2, 3].map(() => store.annotationQueueAddCalls({ project_id: p, queue_id, call_ids: ids }, ctx)));
    expect(answers.reduce((n, a) => n + a.added_count, 0)).toBe(3);
    for (const a of answers) expect(a.added_count + a.duplicates).toBe(3);
    expect((await store.annotationQueueItemsQuery({ project_id: p, queue_id }, ctx)).items).toHaveLength(3);
  });
});
