// The router's call recorder against a real store, on both databases: what a graceful stop
// flushes, what a crash mid-stream leaves (a started call), the shape cost queries read, and what
// happens when the queue is full or the store fails (dropped, counted, logged, never thrown).
import { Writable } from 'node:stream';
import { loadCatalogue } from '@weft/core';
import { createStore, type Store } from '@weft/store';
import { describeEachDialect } from '@weft/store/testing';
import type * as T from '@weft/types';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import type { RecordFinish, RecordStart } from '../../src/router/call-shape.ts';
import { createCallRecorder } from '../../src/router/record-call.ts';

const catalogue = await loadCatalogue();
const ctx = { user: 'alice', mayRead: () => true };
const pricing = { prompt: '0.00000022', completion: '0.00000088', input_cache_read: '0.00000011', request: '0.001', image: '0' };

function startOf(projectId: string, fields: Partial<RecordStart> = {}): RecordStart {
  return {
    projectId,
    principal: { username: 'alice', entities: ['acme'], keyId: 'k', scope: 'admin' },
    op: 'openai.chat.completions.create',
    inputs: { model: 'llama-router', messages: [{ role: 'user', content: 'hello there' }], stream: true },
    recordContent: true,
    parent: undefined,
    startedAt: new Date('2026-01-02T03:04:05.000Z'),
    requestedModel: 'llama-router',
    stream: true,
    ...fields,
  };
}

function finishOf(fields: Partial<RecordFinish> = {}): RecordFinish {
  return {
    output: { id: 'c1', object: 'chat.completion', created: 1, model: 'llama-router', provider: 'p2', choices: [] },
    served: { model: 'llama-router', provider: 'p2', upstream_model: 'meta/llama', pricing },
    priced: {
      usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500, prompt_tokens_details: { cached_tokens: 200 } },
      cost_usd: '0.001638',
    },
    attempts: [{ model: 'llama-router', provider: 'p2', outcome: 'ok', status: 200, latency_ms: 30 }],
    error: undefined,
    endedAt: new Date('2026-01-02T03:04:06.000Z'),
    ...fields,
  };
}

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

async function read(store: Store, project_id: string, id: string): Promise<T.CallSchema> {
  return (await store.callRead({ project_id, id, include_costs: true }, ctx)).call;
}

describeEachDialect('the router call recorder', (getDb) => {
  it('a stream that never finishes (the process died mid-stream) stays a started, running call with no cost', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const recorder = createCallRecorder({ store, logger: pino({ level: 'silent' }) });
    const handle = recorder.start(startOf('acme/crash'));
    await recorder.close();
    const call = await read(store, 'acme/crash', handle.callId);
    expect(call).toMatchObject({ op_name: 'openai.chat.completions.create', trace_id: handle.traceId });
    expect(call.ended_at ?? null).toBeNull();
    expect(call.inputs).toMatchObject({ messages: [{ role: 'user', content: 'hello there' }] });
    expect(call.summary).toMatchObject({ weave: { status: 'running' } });
    expect(call.summary).not.toHaveProperty('usage');
  });

  it('a finished call is written whole, its cost read at the price it was served at (not the catalogue’s)', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const recorder = createCallRecorder({ store, logger: pino({ level: 'silent' }) });
    const handle = recorder.start(startOf('acme/whole', { stream: false, parent: { trace_id: 'sdk-trace', parent_id: 'sdk-call' } }));
    handle.finish(finishOf());
    await recorder.close();
    const call = await read(store, 'acme/whole', handle.callId);
    expect(call).toMatchObject({ trace_id: 'sdk-trace', parent_id: 'sdk-call', ended_at: '2026-01-02T03:04:06.000Z' });
    expect(call.exception ?? null).toBeNull();
    expect(call.attributes).toMatchObject({ gateway: { served_model: 'llama-router', provider: 'p2', stream: false, fallbacks_used: 0 } });
    const summary = call.summary as { usage: unknown; gateway: { cost_usd: string }; weave: { costs: Record<string, unknown> } };
    expect(summary.usage).toEqual({
      'llama-router': {
        requests: 1,
        prompt_tokens: 1000,
        completion_tokens: 500,
        total_tokens: 1500,
        prompt_tokens_details: { cached_tokens: 200 },
      },
    });
    // The exact cost, per request price included.
    expect(summary.gateway.cost_usd).toBe('0.001638');
    // include_costs prices the usage at the recorded endpoint price: 800·0.22e-6 + 200·0.11e-6, 500·0.88e-6.
    expect(summary.weave.costs['llama-router']).toMatchObject({
      prompt_tokens_total_cost: 0.000198,
      completion_tokens_total_cost: 0.00044,
      cached_tokens_total_cost: 0.000022,
      provider_id: 'p2',
      effective_date: '2026-01-02T03:04:05.000Z',
    });
  });

  it('a stream started then finished is one call: the second start adds what was learnt, the end keeps it', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const recorder = createCallRecorder({ store, logger: pino({ level: 'silent' }) });
    const handle = recorder.start(startOf('acme/stream'));
    handle.finish(finishOf());
    handle.finish(finishOf({ error: { status: 500, type: 'x', code: null, param: null, message: 'ignored' } }));
    await recorder.close();
    const { calls } = await store.callsQuery({ project_id: 'acme/stream' }, ctx);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ id: handle.callId, attributes: { gateway: { provider: 'p2' } } });
    expect(calls[0]?.exception ?? null).toBeNull();
  });

  it('close() writes everything queued, in batches', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const recorder = createCallRecorder({ store, logger: pino({ level: 'silent' }) }, { batchSize: 7 });
    for (let i = 0; i < 50; i++) recorder.start(startOf('acme/many', { stream: i % 2 === 0 })).finish(finishOf());
    await recorder.close();
    const { calls } = await store.callsQuery({ project_id: 'acme/many' }, ctx);
    expect(calls).toHaveLength(50);
    expect(calls.every((c) => c.ended_at !== null)).toBe(true);
  });

  it('records each call as written by its own key holder, however the users interleave in a batch', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const recorder = createCallRecorder({ store, logger: pino({ level: 'silent' }) }, { batchSize: 50 });
    const users = ['alice', 'bob', 'alice', 'carol', 'bob', 'alice'];
    const ids = users.map((username) => {
      const principal = { username, entities: ['acme'], keyId: username, scope: 'admin' as const };
      const handle = recorder.start(startOf('acme/users', { stream: false, principal }));
      handle.finish(finishOf());
      return { id: handle.callId, username };
    });
    await recorder.close();
    const { calls } = await store.callsQuery({ project_id: 'acme/users' }, ctx);
    expect(calls).toHaveLength(users.length);
    const writer = new Map(calls.map((c) => [c.id, c.svc_user_id]));
    for (const { id, username } of ids) expect(writer.get(id)).toBe(username);
  });

  it('a full queue drops new records, counts and logs them (without content), and never throws', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const { logger, lines } = capturingLogger();
    const recorder = createCallRecorder({ store, logger }, { maxQueued: 3 });
    for (let i = 0; i < 5; i++) recorder.start(startOf('acme/full', { stream: false })).finish(finishOf());
    await recorder.close();
    expect((await store.callsQuery({ project_id: 'acme/full' }, ctx)).calls).toHaveLength(3);
    const drop = lines.find((l) => l.msg === 'router call records dropped');
    expect(drop).toMatchObject({ reason: 'queue full', dropped_total: 1 });
    expect(JSON.stringify(lines)).not.toContain('hello there');
  });

  it('a store that fails is retried, then given up with a log line; a refused call does not take the others with it', async () => {
    const real = createStore({ db: getDb(), catalogue });
    const { logger, lines } = capturingLogger();
    let outage = 2;
    const store: Store = {
      ...real,
      async callUpsertBatch(req, c) {
        if (outage-- > 0) throw new Error('connection reset');
        // A rule broken by one call (as the store would refuse it) fails the whole transaction.
        if (req.batch.some((i) => i.mode === 'start' && i.req.start.project_id === 'acme/refused')) {
          const { invalidRequest } = await import('@weft/core');
          throw invalidRequest('refused');
        }
        return real.callUpsertBatch(req, c);
      },
    };
    const recorder = createCallRecorder({ store, logger }, { retryDelaysMs: [1, 1] });
    recorder.start(startOf('acme/outage', { stream: false })).finish(finishOf());
    recorder.start(startOf('acme/refused', { stream: false })).finish(finishOf());
    recorder.start(startOf('acme/outage', { stream: false })).finish(finishOf());
    await recorder.close();
    expect((await real.callsQuery({ project_id: 'acme/outage' }, ctx)).calls).toHaveLength(2);
    expect(lines.find((l) => l.msg === 'router call records dropped')).toMatchObject({
      reason: 'refused by the store',
      projects: ['acme/refused'],
    });
  });
});
