// call/start and call/end: id generation, the recorded user, and merging the two halves in
// either order, as seen through call/read.
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { callsOf, ctx, endReq, startReq, T0, T1 } from './call-fixtures.ts';

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeEachDialect('call/start and call/end', (getDb) => {
  it('generates id and trace_id when absent or null, and records the authenticated user', async () => {
    const calls = callsOf(getDb());
    const a = await calls.callStart(startReq('se/gen', { svc_user_id: 'mallory' }), ctx);
    const b = await calls.callStart(startReq('se/gen', { id: null, trace_id: null }), ctx);
    for (const res of [a, b]) {
      expect(res.id).toMatch(UUIDV7);
      expect(res.trace_id).toMatch(UUIDV7);
      expect(res.trace_id).not.toBe(res.id);
    }
    expect(a.id).not.toBe(b.id);
    const { call } = await calls.callRead({ project_id: 'se/gen', id: a.id }, ctx);
    expect(call.svc_user_id).toBe('alice');
  });

  it('keeps given ids and returns a started call with optional fields omitted', async () => {
    const calls = callsOf(getDb());
    const res = await calls.callStart(
      startReq('se/keep', { id: 'c1', trace_id: 't1', inputs: { q: 'hi' }, attributes: { a: 1 }, display_name: null, parent_id: null }),
      ctx,
    );
    expect(res).toEqual({ id: 'c1', trace_id: 't1' });
    const { call } = await calls.callRead({ project_id: 'se/keep', id: 'c1' }, ctx);
    expect(call).toEqual({
      id: 'c1',
      project_id: 'se/keep',
      op_name: 'my_op',
      trace_id: 't1',
      started_at: T0,
      attributes: { a: 1 },
      inputs: { q: 'hi' },
      summary: { weave: { status: 'running', trace_name: 'my_op' } },
      svc_user_id: 'alice',
    });
    // Not ended: no output key at all (a null output means "ended with null").
    expect('output' in call).toBe(false);
  });

  it('stores every start and end field', async () => {
    const calls = callsOf(getDb());
    await calls.callStart(
      startReq('se/all', {
        id: 'c',
        trace_id: 't',
        parent_id: 'p',
        display_name: 'Nice name',
        thread_id: 'th',
        turn_id: 'tu',
        svc_run_id: 'run',
        svc_run_step: 3,
      }),
      ctx,
    );
    await calls.callEnd(endReq('se/all', 'c', { output: [1, 'two'], exception: 'boom', summary: { k: 'v' }, svc_run_step_end: 4 }), ctx);
    const { call } = await calls.callRead({ project_id: 'se/all', id: 'c' }, ctx);
    expect(call).toMatchObject({
      parent_id: 'p',
      display_name: 'Nice name',
      thread_id: 'th',
      turn_id: 'tu',
      svc_run_id: 'run',
      svc_run_step: 3,
      ended_at: T1,
      output: [1, 'two'],
      exception: 'boom',
      svc_run_step_end: 4,
      summary: { k: 'v', weave: { status: 'error', latency_ms: 1395, display_name: 'Nice name' } },
    });
  });

  it('answers {} to call/end and merges an end into its start', async () => {
    const calls = callsOf(getDb());
    await calls.callStart(startReq('se/merge', { id: 'c' }), ctx);
    expect(await calls.callEnd(endReq('se/merge', 'c', { output: { answer: 42 } }), ctx)).toEqual({});
    const { call } = await calls.callRead({ project_id: 'se/merge', id: 'c' }, ctx);
    expect(call).toMatchObject({ started_at: T0, ended_at: T1, output: { answer: 42 }, op_name: 'my_op' });
    expect(call.summary).toEqual({ weave: { status: 'success', latency_ms: 1395, trace_name: 'my_op' } });
  });

  it('accepts an end before its start: invisible until the start arrives, then merged', async () => {
    const calls = callsOf(getDb());
    await calls.callEnd(endReq('se/early', 'c', { output: 'done', summary: { usage: {} } }), ctx);
    await expect(calls.callRead({ project_id: 'se/early', id: 'c' }, ctx)).rejects.toMatchObject({ status: 404 });
    await calls.callStart(startReq('se/early', { id: 'c', trace_id: 't' }), ctx);
    const { call } = await calls.callRead({ project_id: 'se/early', id: 'c' }, ctx);
    expect(call).toMatchObject({
      trace_id: 't',
      started_at: T0,
      ended_at: T1,
      output: 'done',
      summary: { usage: {}, weave: { status: 'success' } },
    });
  });

  it('keeps a null output apart from "not ended yet"', async () => {
    const calls = callsOf(getDb());
    for (const id of ['explicit', 'absent']) await calls.callStart(startReq('se/null', { id }), ctx);
    await calls.callEnd(endReq('se/null', 'explicit', { output: null }), ctx);
    await calls.callEnd(endReq('se/null', 'absent'), ctx);
    for (const id of ['explicit', 'absent']) {
      const { call } = await calls.callRead({ project_id: 'se/null', id }, ctx);
      expect('output' in call && call.output === null).toBe(true);
      expect(call.ended_at).toBe(T1);
    }
  });

  it('lets a second start replace the start fields and keep the end', async () => {
    const calls = callsOf(getDb());
    await calls.callStart(startReq('se/twice', { id: 'c', trace_id: 't1', display_name: 'first', inputs: { v: 1 } }), ctx);
    await calls.callEnd(endReq('se/twice', 'c', { output: 'kept' }), ctx);
    await calls.callStart(startReq('se/twice', { id: 'c', trace_id: 't2', op_name: 'other_op', inputs: { v: 2 } }), { user: 'bob' });
    const { call } = await calls.callRead({ project_id: 'se/twice', id: 'c' }, ctx);
    expect(call).toMatchObject({ trace_id: 't2', op_name: 'other_op', inputs: { v: 2 }, output: 'kept', svc_user_id: 'bob' });
    expect(call.display_name).toBeUndefined();
  });

  it('lets a second end replace the end fields', async () => {
    const calls = callsOf(getDb());
    await calls.callStart(startReq('se/end2', { id: 'c' }), ctx);
    await calls.callEnd(endReq('se/end2', 'c', { exception: 'first try failed', output: null }), ctx);
    await calls.callEnd(endReq('se/end2', 'c', { output: 'ok', ended_at: '2025-06-03T09:41:29.000Z' }), ctx);
    const { call } = await calls.callRead({ project_id: 'se/end2', id: 'c' }, ctx);
    expect(call).toMatchObject({
      output: 'ok',
      ended_at: '2025-06-03T09:41:29.000Z',
      summary: { weave: { status: 'success', latency_ms: 1488 } },
    });
    expect(call.exception).toBeUndefined();
  });

  it('keeps calls of different projects apart', async () => {
    const calls = callsOf(getDb());
    await calls.callStart(startReq('se/p1', { id: 'same', inputs: { p: 1 } }), ctx);
    await calls.callStart(startReq('se/p2', { id: 'same', inputs: { p: 2 } }), ctx);
    expect((await calls.callRead({ project_id: 'se/p1', id: 'same' }, ctx)).call.inputs).toEqual({ p: 1 });
    expect((await calls.callRead({ project_id: 'se/p2', id: 'same' }, ctx)).call.inputs).toEqual({ p: 2 });
    await expect(calls.callRead({ project_id: 'se/p3', id: 'same' }, ctx)).rejects.toMatchObject({ status: 404 });
  });

  it('stores datetimes in the fixed-width UTC form', async () => {
    const calls = callsOf(getDb());
    await calls.callStart(startReq('se/dt', { id: 'c', started_at: '2025-06-03T11:41:27+02:00' }), ctx);
    await calls.callEnd(endReq('se/dt', 'c', { ended_at: '2025-06-03T09:41:28.5Z' }), ctx);
    const { call } = await calls.callRead({ project_id: 'se/dt', id: 'c' }, ctx);
    expect(call).toMatchObject({ started_at: '2025-06-03T09:41:27.000Z', ended_at: '2025-06-03T09:41:28.500Z' });
    expect(call.summary).toMatchObject({ weave: { latency_ms: 1500 } });
    await expect(calls.callStart(startReq('se/dt', { started_at: 'yesterday' }), ctx)).rejects.toMatchObject({
      status: 400,
      errorType: 'InvalidRequest',
    });
    await expect(calls.callEnd(endReq('se/dt', 'c', { ended_at: '+010000-01-01T00:00:00.000Z' }), ctx)).rejects.toMatchObject({
      status: 400,
    });
  });

  it('limits a plain op name to 128 characters; refs may be longer', async () => {
    const calls = callsOf(getDb());
    await expect(calls.callStart(startReq('se/op', { op_name: 'x'.repeat(129) }), ctx)).rejects.toMatchObject({ status: 400 });
    await expect(calls.callStart(startReq('se/op', { op_name: 'x'.repeat(128) }), ctx)).resolves.toMatchObject({
      id: expect.any(String),
      trace_id: expect.any(String),
    });
    const ref = `weave:///se/op/op/${'x'.repeat(128)}:${'d'.repeat(43)}`;
    const { id } = await calls.callStart(startReq('se/op', { op_name: ref }), ctx);
    const { call } = await calls.callRead({ project_id: 'se/op', id }, ctx);
    expect(call.summary).toMatchObject({ weave: { trace_name: 'x'.repeat(128) } });
  });
});
