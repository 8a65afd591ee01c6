// Weave's query language on calls: each operation and operand against calls built for it, the
// same answers from calls/stream_query and calls/query_stats, on both databases; what is not
// covered is refused (400), never ignored.
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { describeEachDialect } from '../dialects.ts';
import { catalogue, ctx, endReq, startReq } from './call-fixtures.ts';

const P = 'query/calls';
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const f = (name: string) => ({ $getField: name });
const lit = (v: unknown) => ({ $literal: v });

describeEachDialect('calls query ($expr)', (getDb) => {
  it('answers each operation as Weave does, in stream_query and query_stats alike', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const calls: Record<string, { start: Record<string, unknown>; end?: Record<string, unknown> }> = {
      ok: {
        start: { op_name: 'Answer_Question', started_at: at(0), inputs: { n: 5, tag: 'red' }, thread_id: 't1', display_name: 'nice' },
        end: { ended_at: at(2), output: { answer: 'yes' } },
      },
      failed: {
        start: { op_name: 'answer_question', started_at: at(10), inputs: { n: '12', tag: 'blue' }, attributes: { flag: true } },
        end: { ended_at: at(11), exception: 'boom' },
      },
      running: { start: { op_name: 'retrieve', started_at: at(20), inputs: { n: 'x' }, thread_id: 't2', attributes: { flag: false } } },
      child_error: {
        start: { op_name: 'retrieve', started_at: at(30), inputs: {} },
        end: { ended_at: at(31), output: 'a plain answer', summary: { status_counts: { error: 1 } } },
      },
    };
    const ids: Record<string, string> = {};
    for (const [name, c] of Object.entries(calls)) {
      const { id } = await store.callStart(startReq(P, c.start), ctx);
      ids[name] = id;
      if (c.end) await store.callEnd(endReq(P, id, c.end), ctx);
    }
    const names = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    const matching = async ($expr: Record<string, unknown>) => {
      const streamed: string[] = [];
      for await (const c of store.callsStreamQuery(
        { project_id: P, query: { $expr: $expr as Record<string, never> } },
        ctx,
      ) as AsyncIterable<{ id: string }>)
        streamed.push(names[c.id]!);
      expect((await store.callsQueryStats({ project_id: P, query: { $expr: $expr as Record<string, never> } }, ctx)).count).toBe(
        streamed.length,
      );
      return streamed.sort();
    };

    expect(await matching({ $eq: [f('summary.weave.status'), lit('error')] })).toEqual(['failed']);
    expect(await matching({ $in: [f('summary.weave.status'), [lit('running'), lit('descendant_error')]] })).toEqual([
      'child_error',
      'running',
    ]);
    expect(await matching({ $gte: [f('started_at'), lit(Date.parse(at(10)) / 1000)] })).toEqual(['child_error', 'failed', 'running']);
    expect(await matching({ $gt: [f('started_at'), lit(at(20))] })).toEqual(['child_error']);
    // SQL's (and ClickHouse's) three-valued logic: a missing end is neither after nor not after.
    expect(await matching({ $not: [{ $gt: [f('ended_at'), lit(at(5))] }] })).toEqual(['ok']);
    // A number literal compares numbers, numeric strings included; a string literal text.
    expect(await matching({ $gt: [f('inputs.n'), lit(6)] })).toEqual(['failed']);
    expect(await matching({ $eq: [f('inputs.tag'), lit('red')] })).toEqual(['ok']);
    expect(await matching({ $eq: [{ $convert: { input: f('inputs.n'), to: 'double' } }, lit(5)] })).toEqual(['ok']);
    expect(await matching({ $contains: { input: f('op_name'), substr: lit('answer'), case_insensitive: true } })).toEqual(['failed', 'ok']);
    expect(await matching({ $contains: { input: f('op_name'), substr: lit('answer') } })).toEqual(['failed']);
    expect(await matching({ $eq: [f('attributes.flag'), lit(true)] })).toEqual(['failed']);
    expect(await matching({ $eq: [f('display_name'), lit(null)] })).toEqual(['child_error', 'failed', 'running']);
    expect(await matching({ $eq: [{ $convert: { input: f('output.answer'), to: 'exists' } }, lit(true)] })).toEqual(['ok']);
    expect(await matching({ $or: [{ $eq: [f('thread_id'), lit('t1')] }, { $eq: [f('wb_user_id'), lit('nobody')] }] })).toEqual(['ok']);
    expect(await matching({ $and: [] })).toEqual(['child_error', 'failed', 'ok', 'running']);
    // Weave's derived latency: whole ms from start to end, none while running.
    expect(await matching({ $gte: [f('summary.weave.latency_ms'), lit(1500)] })).toEqual(['ok']);
    expect(await matching({ $not: [{ $gt: [f('summary.weave.latency_ms'), lit(1000)] }] })).toEqual(['child_error', 'failed']);
    expect(await matching({ $eq: [{ $convert: { input: f('summary.weave.latency_ms'), to: 'exists' } }, lit(false)] })).toEqual([
      'running',
    ]);
    // The output itself when it is one string; an object output has no text there.
    expect(await matching({ $contains: { input: f('output'), substr: lit('PLAIN'), case_insensitive: true } })).toEqual(['child_error']);
    expect(await matching({ $contains: { input: f('output.answer'), substr: lit('ye') } })).toEqual(['ok']);
  });

  it('refuses what it does not cover, naming it', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const refused = async (query: unknown, message: RegExp) =>
      expect(store.callsQueryStats({ project_id: P, query: query as never }, ctx)).rejects.toMatchObject({ status: 400, message });
    await refused({ $expr: { $lt: [f('id'), lit('a')] } }, /unknown operation \$lt/);
    await refused({ $expr: { $eq: [f('summary.weave.trace_name'), lit('a')] } }, /derived at read time/);
    await refused({ $expr: { $eq: [f('inputs'), lit('a')] } }, /unknown field "inputs"/);
    await refused({ $expr: { $eq: [f('nope'), lit(1)] } }, /unknown field "nope"/);
    await refused({ $expr: { $eq: [f('id'), lit({ a: 1 })] } }, /\$literal must be/);
    await refused({ $expr: { $eq: [f('id'), lit(1)] } }, /cannot be compared/);
    await refused({ $expr: { $gt: [f('id'), lit(null)] } }, /only \$eq compares with null/);
    await refused({ $where: 'x' }, /expected \{"\$expr"/);
    let deep: Record<string, unknown> = { $eq: [f('id'), lit('a')] };
    for (let i = 0; i < 100; i++) deep = { $not: [deep] };
    await refused({ $expr: deep }, /deeper than 64/);
  });
});
