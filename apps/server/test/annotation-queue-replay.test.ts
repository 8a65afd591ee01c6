// A replay of what Weave's clients send for queue items, progress and annotation feedback (the
// Python bindings' pydantic bodies: every optional field present, null when unset), over HTTP,
// with the answers compared field by field with Weave's.
import { expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

const P = 'acme/review-replay';

interface Item {
  id: string;
  call_id: string;
  position_in_queue?: number;
}
/** The fields of the answers this replay reads (each answer has some of them). */
interface Answer {
  id: string;
  digest: string;
  created_at: string;
  items: Item[];
  item: Item;
  result: unknown[];
}

describeEachDatabase('annotation queue replay (Weave clients)', (getServer) => {
  async function post(path: string, body: unknown): Promise<{ status: number; json: Answer }> {
    const { url, aliceKey } = getServer();
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : null) as Answer };
  }

  it('adds calls, lists items, moves progress, counts, and links annotation feedback to the queue', async () => {
    const calls = ['0197a000-0000-7000-8000-000000000001', '0197a000-0000-7000-8000-000000000002'];
    for (const [i, id] of calls.entries()) {
      const start = {
        project_id: P,
        id,
        trace_id: `trace-${i}`,
        op_name: 'weave:///acme/review-replay/op/answer:abc',
        started_at: `2026-01-01T00:00:0${i}.000Z`,
        attributes: {},
        inputs: { q: i },
      };
      expect((await post('/call/start', { start })).status).toBe(200);
      expect(
        (await post('/call/end', { end: { project_id: P, id, ended_at: `2026-01-01T00:00:0${i + 5}.000Z`, output: i, summary: {} } }))
          .status,
      ).toBe(200);
    }
    const field_schema = { type: 'integer', minimum: 1, maximum: 5 };
    const spec = await post('/obj/create', {
      obj: {
        project_id: P,
        object_id: 'helpfulness',
        val: {
          _type: 'AnnotationSpec',
          name: 'helpfulness',
          description: null,
          field_schema,
          unique_among_creators: false,
          op_scope: null,
          _class_name: 'AnnotationSpec',
          _bases: ['Object', 'BaseModel'],
        },
        builtin_object_class: null,
        wb_user_id: null,
      },
    });
    expect(spec.status).toBe(200);
    const specRef = `weave:///${P}/object/helpfulness:${spec.json.digest}`;
    const queue = await post('/annotation_queues', {
      project_id: P,
      name: 'Replay',
      description: 'r',
      scorer_refs: [specRef],
      wb_user_id: null,
    });
    expect(queue.status).toBe(200);
    const q = queue.json.id;

    // AnnotationQueueAddCallsReq (queue_id from the path).
    const add = await post(`/annotation_queues/${q}/items`, {
      project_id: P,
      call_ids: [...calls, 'unknown-call'],
      display_fields: ['inputs.q', 'output'],
      wb_user_id: null,
    });
    expect(add).toEqual({ status: 200, json: { added_count: 2, duplicates: 0 } });
    expect(
      (await post(`/annotation_queues/${q}/items`, { project_id: P, call_ids: [calls[0]], display_fields: [], wb_user_id: null })).json,
    ).toEqual({
      added_count: 0,
      duplicates: 1,
    });

    // AnnotationQueueItemsQueryReq with every optional field null (Weave's defaults).
    const listed = await post(`/annotation_queues/${q}/items/query`, {
      project_id: P,
      filter: null,
      sort_by: null,
      limit: null,
      offset: null,
      include_position: false,
    });
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.json)).toEqual(['items']);
    const first = listed.json.items[0]!;
    const second = listed.json.items[1]!;
    expect(first).toEqual({
      id: expect.any(String),
      project_id: P,
      queue_id: q,
      call_id: calls[0],
      call_started_at: '2026-01-01T00:00:00.000Z',
      call_ended_at: '2026-01-01T00:00:05.000Z',
      call_op_name: 'weave:///acme/review-replay/op/answer:abc',
      call_trace_id: 'trace-0',
      display_fields: ['inputs.q', 'output'],
      added_by: 'alice',
      annotation_state: 'unstarted',
      annotator_user_id: '',
      created_at: expect.any(String),
      created_by: 'alice',
      updated_at: expect.any(String),
    });
    expect(second.call_id).toBe(calls[1]);

    // AnnotatorQueueItemsProgressUpdateReq: the annotator is the authenticated user.
    const progress = (item: string, annotation_state: string) =>
      post(`/annotation_queues/${q}/items/${item}/progress`, { project_id: P, annotation_state, wb_user_id: null });
    expect((await progress(first.id, 'in_progress')).json.item).toMatchObject({
      id: first.id,
      annotation_state: 'in_progress',
      annotator_user_id: 'alice',
    });
    expect((await progress(first.id, 'in_progress')).status).toBe(400);
    expect((await progress(first.id, 'completed')).json.item).toMatchObject({ annotation_state: 'completed', annotator_user_id: 'alice' });
    expect((await progress(first.id, 'completed')).status).toBe(400);
    expect((await progress(second.id, 'unstarted')).status).toBe(400);

    const positioned = await post(`/annotation_queues/${q}/items/query`, {
      project_id: P,
      filter: { id: null, call_id: null, call_op_name: null, call_trace_id: null, added_by: null, annotation_states: ['unstarted'] },
      sort_by: [{ field: 'created_at', direction: 'asc' }],
      limit: 10,
      offset: 0,
      include_position: true,
    });
    expect(positioned.json.items.map((i) => [i.call_id, i.position_in_queue])).toEqual([[calls[1], 2]]);

    expect((await post('/annotation_queues/stats', { project_id: P, queue_ids: [q, 'no-such-queue'] })).json).toEqual({
      stats: [
        { queue_id: q, total_items: 2, completed_items: 1, in_progress_items: 0, skipped_items: 0 },
        { queue_id: 'no-such-queue', total_items: 0, completed_items: 0, in_progress_items: 0, skipped_items: 0 },
      ],
    });

    // The annotator's feedback, as Weave's UI writes it for a queue item.
    const feedback = (value: unknown, queue_id: string | null = q) =>
      post('/feedback/create', {
        project_id: P,
        weave_ref: `weave:///${P}/call/${calls[0]}`,
        creator: null,
        feedback_type: 'wandb.annotation.helpfulness',
        payload: { value },
        annotation_ref: specRef,
        runnable_ref: null,
        call_ref: null,
        trigger_ref: null,
        queue_id,
        wb_user_id: null,
      });
    const ok = await feedback(4);
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      svc_user_id: 'alice',
      wb_user_id: 'alice',
      payload: { value: 4 },
    });
    const bad = await feedback(7);
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({
      detail: [{ loc: ['body', 'payload', 'value'], msg: expect.stringContaining('annotation spec'), type: 'value_error' }],
    });
    expect((await feedback(3, 'no-such-queue')).status).toBe(400);

    const found = await post('/feedback/query', {
      project_id: P,
      query: { $expr: { $eq: [{ $getField: 'queue_id' }, { $literal: q }] } },
    });
    expect(found.json.result).toEqual([
      {
        id: ok.json.id,
        project_id: P,
        weave_ref: `weave:///${P}/call/${calls[0]}`,
        wb_user_id: 'alice',
        creator: null,
        created_at: ok.json.created_at,
        feedback_type: 'wandb.annotation.helpfulness',
        payload: { value: 4 },
        annotation_ref: specRef,
        runnable_ref: null,
        call_ref: null,
        trigger_ref: null,
        queue_id: q,
      },
    ]);

    // Removing an item (Weft's route), then deleting the queue: its items routes answer 404.
    expect((await post(`/annotation_queues/${q}/items/delete`, { project_id: P, item_ids: [second.id] })).json).toEqual({ num_deleted: 1 });
    const { url, aliceKey } = getServer();
    const del = await fetch(`${url}/annotation_queues/${q}?project_id=${encodeURIComponent(P)}`, {
      method: 'DELETE',
      headers: { authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}` },
    });
    expect(del.status).toBe(200);
    expect((await post(`/annotation_queues/${q}/items/query`, { project_id: P })).status).toBe(404);
  });
});
