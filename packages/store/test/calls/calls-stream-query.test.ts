// calls/stream_query: the same calls call/read returns, filtered, ordered and paged.
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import { PAGE_SIZE, callsStreamQuery } from '../../src/calls/calls-stream-query.ts';
import { jsonParam, nowIso, type Db } from '../../src/db/index.ts';
import { callRef, feedbackMethods } from '../../src/feedback/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { callsOf, catalogue, ctx, endReq, startReq, weaveOf } from './call-fixtures.ts';

const PRICED = 'meta-llama/Llama-3.1-8B-Instruct';
/** Minute `m` of a fixed day, so started_at order is chosen by the test. */
const at = (m: number) => `2025-06-03T09:${String(m).padStart(2, '0')}:00.000Z`; // before T1, the default end

async function query(db: Db, req: Partial<T.CallsStreamQueryReq> & { project_id: string }, pageSize?: number): Promise<T.CallSchema[]> {
  const out: T.CallSchema[] = [];
  for await (const call of callsStreamQuery(db, catalogue, req, ctx, pageSize)) out.push(call);
  return out;
}
const ids = async (db: Db, req: Partial<T.CallsStreamQueryReq> & { project_id: string }, pageSize?: number) =>
  (await query(db, req, pageSize)).map((c) => c.id);

describeEachDialect('calls/stream_query', (getDb) => {
  it('returns every visible call exactly as call/read does, include flags included', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/same';
    const usage = { [PRICED]: { prompt_tokens: 412, completion_tokens: 38, requests: 1 } };
    await calls.callStart(
      startReq(p, { id: 'root', trace_id: 'T', started_at: at(0), inputs: { q: 'é, "x"' }, attributes: { weave: { source: 'js-sdk' } } }),
      ctx,
    );
    await calls.callStart(
      startReq(p, {
        id: 'child',
        trace_id: 'T',
        parent_id: 'root',
        started_at: at(1),
        display_name: 'Child',
        thread_id: 'th',
        turn_id: 'tu',
      }),
      ctx,
    );
    await calls.callEnd(endReq(p, 'child', { output: { a: [1, 2.5, null] }, summary: { usage } }), ctx);
    await calls.callStart(startReq(p, { id: 'failed', started_at: at(2), svc_run_id: 'run', svc_run_step: 3 }), ctx);
    await calls.callEnd(endReq(p, 'failed', { exception: 'ValueError: bad', output: null, summary: { status_counts: { error: 1 } } }), ctx);
    await calls.callEnd(endReq(p, 'end-only'), ctx);
    await calls.callStart(startReq(p, { id: 'deleted', started_at: at(3) }), ctx);
    await db.kysely.updateTable('calls').set({ deleted_at: nowIso() }).where('project_id', '=', p).where('id', '=', 'deleted').execute();

    for (const flags of [{}, { include_costs: true, include_storage_size: true, include_total_storage_size: true }]) {
      const streamed = await query(db, { project_id: p, ...flags });
      expect(streamed.map((c) => c.id)).toEqual(['root', 'child', 'failed']);
      for (const call of streamed) {
        expect(call, call.id).toEqual((await calls.callRead({ project_id: p, id: call.id, ...flags }, ctx)).call);
      }
    }
    const costed = await query(db, { project_id: p, include_costs: true, filter: { call_ids: ['child'] } });
    expect(weaveOf(costed[0] as T.CallSchema).costs).toHaveProperty([PRICED]);
  });

  it('orders by started_at then id by default and excludes other projects', async () => {
    const db = getDb();
    const calls = callsOf(db);
    for (const [id, m] of [
      ['b', 1],
      ['a', 1],
      ['c', 0],
      ['d', 2],
    ] as const)
      await calls.callStart(startReq('sq/order', { id, started_at: at(m) }), ctx);
    await calls.callStart(startReq('sq/order-other', { id: 'x' }), ctx);
    expect(await ids(db, { project_id: 'sq/order' })).toEqual(['c', 'a', 'b', 'd']);
    expect(await ids(db, { project_id: 'sq/order', sort_by: [{ field: 'started_at', direction: 'desc' }] })).toEqual(['d', 'a', 'b', 'c']);
    expect(await ids(db, { project_id: 'sq/order', sort_by: [{ field: 'id', direction: 'desc' }] })).toEqual(['d', 'c', 'b', 'a']);
    expect(await ids(db, { project_id: 'sq/none' })).toEqual([]);
  });

  it('filters by ids, parents, traces, threads, turns, roots, users and runs (every condition must hold)', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/filter';
    await calls.callStart(
      startReq(p, { id: 'r1', trace_id: 't1', started_at: at(0), thread_id: 'th1', turn_id: 'tu1', svc_run_id: 'run1' }),
      ctx,
    );
    await calls.callStart(
      startReq(p, { id: 'c1', trace_id: 't1', parent_id: 'r1', started_at: at(1), thread_id: 'th1', turn_id: 'tu2' }),
      ctx,
    );
    await calls.callStart(startReq(p, { id: 'r2', trace_id: 't2', started_at: at(2), svc_run_id: 'run2' }), { user: 'bob' });
    const f = async (filter: T.CallsFilter) => ids(db, { project_id: p, filter });
    expect(await f({})).toEqual(['r1', 'c1', 'r2']);
    expect(await f({ call_ids: ['r2', 'c1', 'nope'] })).toEqual(['c1', 'r2']);
    expect(await f({ call_ids: [], parent_ids: null })).toEqual(['r1', 'c1', 'r2']); // empty or null: no condition
    expect(await f({ parent_ids: ['r1'] })).toEqual(['c1']);
    expect(await f({ trace_ids: ['t2'] })).toEqual(['r2']);
    expect(await f({ thread_ids: ['th1'] })).toEqual(['r1', 'c1']);
    expect(await f({ turn_ids: ['tu2'] })).toEqual(['c1']);
    expect(await f({ trace_roots_only: true })).toEqual(['r1', 'r2']);
    expect(await f({ trace_roots_only: false })).toEqual(['r1', 'c1', 'r2']);
    expect(await f({ svc_user_ids: ['bob'] })).toEqual(['r2']);
    expect(await f({ svc_run_ids: ['run1', 'run2'] })).toEqual(['r1', 'r2']);
    expect(await f({ thread_ids: ['th1'], trace_roots_only: true })).toEqual(['r1']);
    expect(await f({ trace_ids: ['t1'], svc_user_ids: ['bob'] })).toEqual([]);
  });

  it('matches op names exactly, and every version of an op ref with a trailing :*', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/ops';
    const op = (name: string, v: string) => `weave:///acme/bot/op/${name}:${v}`;
    await calls.callStart(startReq(p, { id: 'v1', op_name: op('answer', 'aaa'), started_at: at(0) }), ctx);
    await calls.callStart(startReq(p, { id: 'v2', op_name: op('answer', 'bbb'), started_at: at(1) }), ctx);
    await calls.callStart(startReq(p, { id: 'longer', op_name: op('answer_question', 'aaa'), started_at: at(2) }), ctx);
    await calls.callStart(startReq(p, { id: 'plain', op_name: 'openai.chat', started_at: at(3) }), ctx);
    const f = async (op_names: string[]) => ids(db, { project_id: p, filter: { op_names } });
    expect(await f([op('answer', '*')])).toEqual(['v1', 'v2']);
    expect(await f([op('answer', 'bbb')])).toEqual(['v2']);
    expect(await f([op('answer', 'aaa'), 'openai.chat'])).toEqual(['v1', 'plain']);
    expect(await f([op('answer_question', '*'), 'openai.chat'])).toEqual(['longer', 'plain']);
    expect(await f(['weave:///acme/bot/op/answer'])).toEqual([]); // no wildcard: exact only
  });

  it('finds calls whose inputs or output hold a ref as a whole string value, at any depth', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/refs';
    const ref = 'weave:///acme/bot/object/ds:abc';
    await calls.callStart(startReq(p, { id: 'top', started_at: at(0), inputs: { dataset: ref } }), ctx);
    await calls.callStart(startReq(p, { id: 'deep', started_at: at(1), inputs: { a: [{ b: ref }] } }), ctx);
    await calls.callStart(startReq(p, { id: 'longer', started_at: at(2), inputs: { d: `${ref}/attr/rows` } }), ctx);
    await calls.callStart(startReq(p, { id: 'out', started_at: at(3) }), ctx);
    await calls.callEnd(endReq(p, 'out', { output: ref }), ctx);
    expect(await ids(db, { project_id: p, filter: { input_refs: [ref] } })).toEqual(['top', 'deep']);
    expect(await ids(db, { project_id: p, filter: { input_refs: [`${ref}/attr/rows`, 'weave:///none'] } })).toEqual(['longer']);
    expect(await ids(db, { project_id: p, filter: { output_refs: [ref] } })).toEqual(['out']);
    expect(await ids(db, { project_id: p, filter: { input_refs: [ref], output_refs: [ref] } })).toEqual([]);
  });

  it('sorts by ended_at with running calls last, and by several keys', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/ended';
    for (const [id, op, m] of [
      ['x', 'b', 0],
      ['y', 'a', 1],
      ['z', 'a', 2],
      ['run', 'b', 3],
    ] as const) {
      await calls.callStart(startReq(p, { id, op_name: op, started_at: at(m) }), ctx);
    }
    await calls.callEnd(endReq(p, 'x', { ended_at: at(30) }), ctx);
    await calls.callEnd(endReq(p, 'y', { ended_at: at(10) }), ctx);
    await calls.callEnd(endReq(p, 'z', { ended_at: at(20) }), ctx);
    expect(await ids(db, { project_id: p, sort_by: [{ field: 'ended_at', direction: 'asc' }] })).toEqual(['y', 'z', 'x', 'run']);
    expect(await ids(db, { project_id: p, sort_by: [{ field: 'ended_at', direction: 'desc' }] })).toEqual(['x', 'z', 'y', 'run']);
    const byOpThenNewest: T.CallsSortItem[] = [
      { field: 'op_name', direction: 'asc' },
      { field: 'started_at', direction: 'desc' },
    ];
    expect(await ids(db, { project_id: p, sort_by: byOpThenNewest })).toEqual(['z', 'y', 'run', 'x']);
  });

  it('sorts by Weave’s derived latency and status: a running call last either way, pages agreeing', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/latency';
    // Latencies with millisecond digits, so a sort by seconds alone would tie them.
    const ends: [string, string | undefined][] = [
      ['slow', '2025-06-03T09:00:03.250Z'],
      ['fast', '2025-06-03T09:01:00.040Z'],
      ['mid', '2025-06-03T09:02:01.999Z'],
      ['run', undefined],
      ['bad', '2025-06-03T09:04:00.500Z'],
    ];
    for (const [i, [id, end]] of ends.entries()) {
      await calls.callStart(startReq(p, { id, started_at: at(i) }), ctx);
      if (end) await calls.callEnd(endReq(p, id, { ended_at: end, ...(id === 'bad' ? { exception: 'boom' } : {}) }), ctx);
    }
    const byLatency = (direction: 'asc' | 'desc') => [{ field: 'summary.weave.latency_ms', direction }];
    expect(await ids(db, { project_id: p, sort_by: byLatency('asc') })).toEqual(['fast', 'bad', 'mid', 'slow', 'run']);
    expect(await ids(db, { project_id: p, sort_by: byLatency('desc') })).toEqual(['slow', 'mid', 'bad', 'fast', 'run']);
    // Internal pages of two rows: offset paging keeps the order across them.
    expect(await ids(db, { project_id: p, sort_by: byLatency('desc') }, 2)).toEqual(['slow', 'mid', 'bad', 'fast', 'run']);
    expect(await ids(db, { project_id: p, sort_by: byLatency('desc'), offset: 1, limit: 2 })).toEqual(['mid', 'bad']);
    // The answered latency is the one sorted by.
    const answered = await query(db, { project_id: p, sort_by: byLatency('desc') });
    expect(answered.map((c) => weaveOf(c).latency_ms)).toEqual([3250, 1999, 500, 40, undefined]);
    const byStatus = await ids(db, {
      project_id: p,
      sort_by: [
        { field: 'summary.weave.status', direction: 'asc' },
        { field: 'started_at', direction: 'asc' },
      ],
    });
    expect(byStatus).toEqual(['bad', 'run', 'slow', 'fast', 'mid']);
  });

  it('sorts dot paths as Weave does: present first, numbers (numeric strings too), then text; missing and null last', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/paths';
    const values: [string, unknown][] = [
      ['n3', 3],
      ['s10', '10'],
      ['abc', 'abc'],
      ['n25', 2.5],
      ['bool', true],
      ['nul', null],
      ['obj', { k: 1 }],
    ];
    for (const [i, [id, v]] of values.entries())
      await calls.callStart(startReq(p, { id, started_at: at(i), inputs: { x: { score: v } } }), ctx);
    await calls.callStart(startReq(p, { id: 'missing', started_at: at(9), inputs: {} }), ctx);
    const sorted = (direction: 'asc' | 'desc') => ids(db, { project_id: p, sort_by: [{ field: 'inputs.x.score', direction }] });
    expect(await sorted('asc')).toEqual(['n25', 'n3', 's10', 'abc', 'bool', 'obj', 'missing', 'nul']);
    expect(await sorted('desc')).toEqual(['s10', 'n3', 'n25', 'obj', 'bool', 'abc', 'missing', 'nul']);

    await calls.callEnd(endReq(p, 'n3', { output: { tokens: 7 }, summary: { usage: { m: { requests: 2 } } } }), ctx);
    await calls.callEnd(endReq(p, 'abc', { output: { tokens: 12 }, summary: { usage: { m: { requests: 1 } } } }), ctx);
    expect((await ids(db, { project_id: p, sort_by: [{ field: 'output.tokens', direction: 'desc' }] })).slice(0, 2)).toEqual(['abc', 'n3']);
    expect((await ids(db, { project_id: p, sort_by: [{ field: 'summary.usage.m.requests', direction: 'asc' }] })).slice(0, 2)).toEqual([
      'abc',
      'n3',
    ]);
  });

  it('rejects sort fields it cannot honour with a 400, before any row', async () => {
    const db = getDb();
    for (const field of [
      'display_name',
      'inputs',
      'inputs.',
      'inputs..a',
      '.inputs',
      'summary.weave.trace_name',
      'summary.weave.costs',
      'nope.a',
      '',
    ]) {
      await expect(query(db, { project_id: 'sq/bad', sort_by: [{ field, direction: 'asc' }] }), field).rejects.toMatchObject({
        status: 400,
        errorType: 'InvalidRequest',
      });
    }
    await expect(query(db, { project_id: 'sq/bad', sort_by: [{ field: 'id', direction: 'up' as 'asc' }] })).rejects.toMatchObject({
      status: 400,
    });
    await expect(query(db, { project_id: 'sq/bad', limit: -1 })).rejects.toMatchObject({ status: 400 });
  });

  it('pages with limit and offset, across internal pages, in every paging mode', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/pages';
    const all: string[] = [];
    for (let i = 0; i < 11; i++) {
      const id = `c${String(i).padStart(2, '0')}`;
      all.push(id);
      // Pairs share a started_at, so the id tie-break decides inside each pair.
      await calls.callStart(startReq(p, { id, started_at: at(Math.floor(i / 2)), inputs: { k: i % 3 } }), ctx);
    }
    const byK: T.CallsSortItem[] = [{ field: 'inputs.k', direction: 'desc' }];
    for (const sort_by of [undefined, [{ field: 'started_at', direction: 'desc' }] as T.CallsSortItem[], byK]) {
      const full = await ids(db, { project_id: p, sort_by }, 1000);
      expect(full).toHaveLength(11);
      if (!sort_by) expect(full).toEqual(all);
      for (const pageSize of [1, 2, 3, 11]) {
        expect(await ids(db, { project_id: p, sort_by }, pageSize), `page ${pageSize}`).toEqual(full);
        expect(await ids(db, { project_id: p, sort_by, limit: 5, offset: 3 }, pageSize)).toEqual(full.slice(3, 8));
        expect(await ids(db, { project_id: p, sort_by, offset: 9 }, pageSize)).toEqual(full.slice(9));
      }
    }
    expect(await ids(db, { project_id: p, limit: 0 })).toEqual([]);
    expect(await ids(db, { project_id: p, offset: 50 })).toEqual([]);
  });

  it('reads page by page: a call written mid-stream past the current page is still returned', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/lazy';
    for (const [id, m] of [
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ] as const)
      await calls.callStart(startReq(p, { id, started_at: at(m) }), ctx);
    const seen: string[] = [];
    for await (const call of callsStreamQuery(db, catalogue, { project_id: p }, ctx, 2)) {
      seen.push(call.id);
      if (call.id === 'a') await calls.callStart(startReq(p, { id: 'late', started_at: at(5) }), ctx);
    }
    expect(seen).toEqual(['a', 'b', 'c', 'late']);
  });

  it(`streams a result larger than a page (${PAGE_SIZE} rows) in order`, async () => {
    const db = getDb();
    const p = 'sq/big';
    const n = 2 * PAGE_SIZE + 3;
    const rows = Array.from({ length: n }, (_, i) => ({
      project_id: p,
      id: `c${String(n - i).padStart(5, '0')}`,
      trace_id: `t${i}`,
      op_name: 'bulk',
      started_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 1000).toISOString(),
      attributes: jsonParam(db, {}),
      inputs: jsonParam(db, { i }),
    }));
    for (let i = 0; i < n; i += 200)
      await db.kysely
        .insertInto('calls')
        .values(rows.slice(i, i + 200))
        .execute();
    const expected = [...rows].sort((a, b) => a.started_at.localeCompare(b.started_at) || (a.id < b.id ? -1 : 1)).map((r) => r.id);
    expect(await ids(db, { project_id: p })).toEqual(expected);
    expect(await ids(db, { project_id: p, offset: PAGE_SIZE - 1, limit: PAGE_SIZE + 2 })).toEqual(
      expected.slice(PAGE_SIZE - 1, 2 * PAGE_SIZE + 1),
    );
  });

  it('attaches the live feedback of each call with include_feedback', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'sq/fb';
    await calls.callStart(startReq(p, { id: 'rated', started_at: at(0) }), ctx);
    await calls.callEnd(endReq(p, 'rated', { summary: { weave: { feedback: ['stored'] } } }), ctx);
    await calls.callStart(startReq(p, { id: 'plain', started_at: at(1) }), ctx);
    const fb = await feedbackMethods({ db }).feedbackCreate(
      { project_id: p, weave_ref: callRef(p, 'rated'), feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } },
      ctx,
    );
    const [rated, plain] = await query(db, { project_id: p, include_feedback: true });
    expect(weaveOf(rated as T.CallSchema).feedback).toEqual([
      expect.objectContaining({
        id: fb.id,
        feedback_type: 'wandb.reaction.1',
        payload: { emoji: '👍' },
        weave_ref: callRef(p, 'rated'),
        svc_user_id: 'alice',
      }),
    ]);
    expect(weaveOf(plain as T.CallSchema)).toEqual({ status: 'running', trace_name: 'my_op', feedback: [] });
    // Without the flag the summary is call/read's: a stored summary.weave.feedback stays as sent.
    expect(weaveOf((await query(db, { project_id: p }))[0] as T.CallSchema).feedback).toEqual(['stored']);
  });
});
