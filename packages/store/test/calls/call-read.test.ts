// call/read: the read-time summary.weave, the include flags, and which calls are a 404.
import { computeCosts } from '@weft/core';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { callsOf, catalogue, ctx, endReq, startReq, weaveOf } from './call-fixtures.ts';

const PRICED = 'meta-llama/Llama-3.1-8B-Instruct';
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

describeEachDialect('call/read', (getDb) => {
  it('derives summary.weave.status: error, running, descendant_error, success', async () => {
    const calls = callsOf(getDb());
    const p = 'rd/status';
    const cases: [string, Record<string, unknown> | null, string][] = [
      ['err', { exception: 'ValueError: bad', summary: { status_counts: { error: 2 } } }, 'error'],
      ['run', null, 'running'],
      ['desc', { summary: { status_counts: { success: 1, error: 1 } } }, 'descendant_error'],
      ['zero', { summary: { status_counts: { success: 3, error: 0 } } }, 'success'],
      ['emptyexc', { exception: '' }, 'success'],
    ];
    for (const [id, endFields] of cases) {
      await calls.callStart(startReq(p, { id }), ctx);
      if (endFields) await calls.callEnd(endReq(p, id, endFields), ctx);
    }
    for (const [id, , status] of cases) {
      const { call } = await calls.callRead({ project_id: p, id }, ctx);
      expect(call.summary, id).toMatchObject({ weave: { status } });
    }
    // Before its end a call's summary is the derived part alone.
    const { call: running } = await calls.callRead({ project_id: p, id: 'run' }, ctx);
    expect(running.summary).toEqual({ weave: { status: 'running', trace_name: 'my_op' } });
  });

  it('replaces stored derived fields, keeps the rest of summary and summary.weave', async () => {
    const calls = callsOf(getDb());
    await calls.callStart(startReq('rd/keep', { id: 'c' }), ctx);
    const stored = {
      usage: { m: { prompt_tokens: 1 } },
      custom: [1, 2],
      weave: {
        status: 'success',
        trace_name: 'forged',
        latency_ms: 1,
        display_name: 'forged',
        feedback: [{ x: 1 }],
        costs: { sent: true },
      },
    };
    await calls.callEnd(endReq('rd/keep', 'c', { exception: 'boom', summary: stored }), ctx);
    const { call } = await calls.callRead({ project_id: 'rd/keep', id: 'c' }, ctx);
    expect(call.summary).toEqual({
      usage: { m: { prompt_tokens: 1 } },
      custom: [1, 2],
      weave: { feedback: [{ x: 1 }], costs: { sent: true }, status: 'error', latency_ms: 1395, trace_name: 'my_op' },
    });
  });

  it('names the trace after the display name, else the op ref name, else the raw op name', async () => {
    const calls = callsOf(getDb());
    const p = 'rd/names';
    await calls.callStart(startReq(p, { id: 'dn', display_name: 'Shown', op_name: 'weave:///e/p/op/answer:abc' }), ctx);
    await calls.callStart(startReq(p, { id: 'ref', op_name: 'weave:///acme/bot/op/answer_question:o2sfLDXEUi3' }), ctx);
    await calls.callStart(startReq(p, { id: 'plain', op_name: 'openai.chat.completions.create' }), ctx);
    await calls.callStart(startReq(p, { id: 'objref', op_name: 'weave:///acme/bot/object/thing:abc' }), ctx);
    const weave = async (id: string) => weaveOf((await calls.callRead({ project_id: p, id }, ctx)).call);
    expect(await weave('dn')).toEqual({ status: 'running', display_name: 'Shown' });
    expect(await weave('ref')).toEqual({ status: 'running', trace_name: 'answer_question' });
    expect(await weave('plain')).toEqual({ status: 'running', trace_name: 'openai.chat.completions.create' });
    expect(await weave('objref')).toEqual({ status: 'running', trace_name: 'weave:///acme/bot/object/thing:abc' });
  });

  it('computes latency_ms in whole milliseconds, only once ended', async () => {
    const calls = callsOf(getDb());
    await calls.callStart(startReq('rd/lat', { id: 'c', started_at: '2025-01-01T00:00:00.999Z' }), ctx);
    await calls.callEnd(endReq('rd/lat', 'c', { ended_at: '2025-01-01T00:01:00.000Z' }), ctx);
    const { call } = await calls.callRead({ project_id: 'rd/lat', id: 'c' }, ctx);
    expect(call.summary).toMatchObject({ weave: { latency_ms: 59_001 } });
  });

  it('adds summary.weave.costs from summary.usage with include_costs, priced models only', async () => {
    const calls = callsOf(getDb());
    const usage = {
      [PRICED]: { prompt_tokens: 412, completion_tokens: 38, requests: 1, total_tokens: 450 },
      'no/such-model': { prompt_tokens: 5 },
    };
    await calls.callStart(startReq('rd/cost', { id: 'priced' }), ctx);
    await calls.callEnd(endReq('rd/cost', 'priced', { summary: { usage } }), ctx);
    await calls.callStart(startReq('rd/cost', { id: 'unpriced' }), ctx);
    await calls.callEnd(endReq('rd/cost', 'unpriced', { summary: { usage: { 'no/such-model': { prompt_tokens: 5 } } } }), ctx);
    await calls.callStart(startReq('rd/cost', { id: 'nousage' }), ctx);

    const priced = (await calls.callRead({ project_id: 'rd/cost', id: 'priced', include_costs: true }, ctx)).call;
    const costs = weaveOf(priced).costs as Record<string, { prompt_tokens_total_cost: number }>;
    expect(costs).toEqual(computeCosts(usage, catalogue));
    expect(Object.keys(costs)).toEqual([PRICED]);
    expect(costs[PRICED]?.prompt_tokens_total_cost).toBe(0.00009064);
    expect(priced.summary).toMatchObject({ usage }); // usage itself is returned as stored

    for (const req of [
      { project_id: 'rd/cost', id: 'priced' },
      { project_id: 'rd/cost', id: 'priced', include_costs: false },
      { project_id: 'rd/cost', id: 'unpriced', include_costs: true },
      { project_id: 'rd/cost', id: 'nousage', include_costs: true },
    ]) {
      const { call } = await calls.callRead(req, ctx);
      expect('costs' in weaveOf(call), JSON.stringify(req)).toBe(false);
    }
  });

  it('measures storage_size_bytes as the stored JSON of attributes, inputs, output and summary', async () => {
    const calls = callsOf(getDb());
    const attributes = { weave: { client_version: '0.11.1', source: 'js-sdk' } };
    // Text with ", " and ": " inside strings, escapes and multi-byte characters.
    const inputs = { question: 'a, b: "c"\n', 'ünï 😀': [1, 2.5, true, null], nested: { k: 'v' } };
    const output = { answer: 'Open Settings, then Security: Reset.' };
    const summary = { usage: { m: { prompt_tokens: 10 } } };
    await calls.callStart(startReq('rd/size', { id: 'c', attributes, inputs }), ctx);
    const running = (await calls.callRead({ project_id: 'rd/size', id: 'c', include_storage_size: true }, ctx)).call;
    expect(running.storage_size_bytes).toBe(bytes(attributes) + bytes(inputs)); // no end yet: no output, no summary

    await calls.callEnd(endReq('rd/size', 'c', { output, summary }), ctx);
    const { call } = await calls.callRead({ project_id: 'rd/size', id: 'c', include_storage_size: true }, ctx);
    expect(call.storage_size_bytes).toBe(bytes(attributes) + bytes(inputs) + bytes(output) + bytes(summary));
    expect('storage_size_bytes' in (await calls.callRead({ project_id: 'rd/size', id: 'c' }, ctx)).call).toBe(false);

    // A JSON null output counts as the 4 bytes of `null`; a string output with its quotes.
    await calls.callStart(startReq('rd/size', { id: 'n' }), ctx);
    await calls.callEnd(endReq('rd/size', 'n', { output: null }), ctx);
    expect((await calls.callRead({ project_id: 'rd/size', id: 'n', include_storage_size: true }, ctx)).call.storage_size_bytes).toBe(
      2 + 2 + 4 + 2,
    );
    await calls.callStart(startReq('rd/size', { id: 's' }), ctx);
    await calls.callEnd(endReq('rd/size', 's', { output: 'é, "x"' }), ctx);
    expect((await calls.callRead({ project_id: 'rd/size', id: 's', include_storage_size: true }, ctx)).call.storage_size_bytes).toBe(
      2 + 2 + bytes('é, "x"') + 2,
    );
  });

  it('sums total_storage_size_bytes over the trace, on root calls only', async () => {
    const db = getDb();
    const calls = callsOf(db);
    const p = 'rd/total';
    await calls.callStart(startReq(p, { id: 'root', trace_id: 'T', inputs: { a: 'x'.repeat(100) } }), ctx);
    await calls.callStart(startReq(p, { id: 'child', trace_id: 'T', parent_id: 'root', inputs: { b: 'y' } }), ctx);
    await calls.callEnd(endReq(p, 'child', { output: [1, 2, 3] }), ctx);
    await calls.callStart(startReq(p, { id: 'gone', trace_id: 'T', parent_id: 'root', inputs: { c: 'z'.repeat(1000) } }), ctx);
    await db.kysely
      .updateTable('calls')
      .set({ deleted_at: '2025-06-04T00:00:00.000Z' })
      .where('project_id', '=', p)
      .where('id', '=', 'gone')
      .execute();
    await calls.callStart(startReq(p, { id: 'other', trace_id: 'U', inputs: { d: 'w'.repeat(50) } }), ctx);
    await calls.callStart(startReq('rd/total-elsewhere', { id: 'x', trace_id: 'T', inputs: { e: 'v'.repeat(70) } }), ctx);

    const size = async (id: string) =>
      (await calls.callRead({ project_id: p, id, include_storage_size: true }, ctx)).call.storage_size_bytes ?? NaN;
    const root = (await calls.callRead({ project_id: p, id: 'root', include_total_storage_size: true }, ctx)).call;
    expect(root.total_storage_size_bytes).toBe((await size('root')) + (await size('child')));
    expect('storage_size_bytes' in root).toBe(false);
    const child = (await calls.callRead({ project_id: p, id: 'child', include_total_storage_size: true }, ctx)).call;
    expect('total_storage_size_bytes' in child).toBe(false);
    const other = (await calls.callRead({ project_id: p, id: 'other', include_total_storage_size: true, include_storage_size: true }, ctx))
      .call;
    expect(other.total_storage_size_bytes).toBe(other.storage_size_bytes);
  });

  it('is a 404 for a missing, never-started or deleted call', async () => {
    const db = getDb();
    const calls = callsOf(db);
    await calls.callEnd(endReq('rd/404', 'ended-only'), ctx);
    await calls.callStart(startReq('rd/404', { id: 'deleted' }), ctx);
    await db.kysely.updateTable('calls').set({ deleted_at: '2025-06-04T00:00:00.000Z' }).where('project_id', '=', 'rd/404').execute();
    for (const id of ['missing', 'ended-only', 'deleted']) {
      await expect(calls.callRead({ project_id: 'rd/404', id }, ctx)).rejects.toMatchObject({
        status: 404,
        errorType: 'NotFoundError',
        message: `Call ${id} not found`,
      });
    }
  });
});
