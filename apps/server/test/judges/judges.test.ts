// LLM-as-judge end to end, on both databases, against a test-owned upstream behind Weft's router:
// calls/score and monitors write each judgement as Weave's runnable feedback on the judged call,
// the judge's request is a recorded, priced router call, failures are retried or reported, a
// monitor at 50% judges exactly the calls its sampling picks (about half), and a server stopped
// mid-judgement and started again finishes the work without judging any call twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampledForMonitor } from '@weft/core';
import { createRouter, type Router } from '@weft/router';
import { completion, startFakeUpstream, testRouterConfig, usageOf, type FakeUpstream } from '@weft/router/testing';
import { describeIfPostgres } from '@weft/store/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../test-server.ts';

const P = 'acme/judged';
const ANSWER = completion('{"score": 4}', { usage: usageOf(100, 10) });
// 100 × 0.000001 + 10 × 0.000002
const COST = '0.00012';

const judgeVal = (model: string) => ({
  _type: 'LLMAsAJudgeScorer',
  _class_name: 'LLMAsAJudgeScorer',
  _bases: ['Scorer', 'Object', 'BaseModel'],
  model: {
    llm_model_id: model,
    default_params: { messages_template: [{ role: 'system', content: 'You grade.' }], response_format: 'json' },
  },
  scoring_prompt: 'Question: {question}\nAnswer: {output}',
});

function declare(getUrl: () => string) {
  let upstream: FakeUpstream;
  let router: Router;
  const servers: TestServer[] = [];
  const start = async () => {
    const server = await startTestServer(
      'sqlite',
      { DATABASE_URL: getUrl(), JUDGE_POLL_INTERVAL: '50ms', MONITOR_SCAN_INTERVAL: '100ms', JUDGE_CONCURRENCY: '4' },
      undefined,
      { router: () => router },
    );
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setDefault({ kind: 'json', body: ANSWER });
    const config = testRouterConfig({
      providers: [{ id: 'a', base_url: upstream.base_url, api_key_env: 'KEY_A', timeouts: { first_byte_ms: 60_000, idle_ms: 60_000 } }],
      models: [{ id: 'judge', endpoints: [{ provider: 'a', model: 'grader', pricing: { prompt: '0.000001', completion: '0.000002' } }] }],
      routing: { retries: 0, allowed_fails: 1000 },
    });
    router = createRouter({ config, env: { KEY_A: 'sk-judge-upstream-0123456789' } });
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await router?.close();
    await upstream?.close();
  });

  const helpers = (server: TestServer) => {
    const api = server.client();
    let n = 0;
    return {
      api,
      async scorer(name: string, model = 'judge') {
        const { digest } = await api.POST('/obj/create', {
          body: { obj: { project_id: P, object_id: name, val: judgeVal(model) as never } },
        });
        return `weave:///${P}/object/${name}:${digest}`;
      },
      async calls(count: number, op = 'answer') {
        const ids: string[] = [];
        const batch = [];
        for (let i = 0; i < count; i++) {
          const id = `0197a1f0-0000-7000-8000-${String(Date.now() % 1e6).padStart(6, '0')}${String(n++).padStart(6, '0')}`;
          const at = new Date().toISOString();
          ids.push(id);
          batch.push(
            {
              mode: 'start' as const,
              req: {
                start: {
                  project_id: P,
                  id,
                  trace_id: id,
                  op_name: op,
                  started_at: at,
                  attributes: {},
                  inputs: { question: `Why ${i}?` } as never,
                },
              },
            },
            { mode: 'end' as const, req: { end: { project_id: P, id, ended_at: at, output: 'Because.' as never, summary: {} as never } } },
          );
        }
        await api.POST('/call/upsert_batch', { body: { batch } });
        return ids;
      },
      judgements: async (filter: Record<string, unknown> = {}) =>
        (await api.POST('/judgements/query', { body: { project_id: P, limit: 1000, ...filter } })).judgements,
      feedbackOn: async (callId: string) =>
        (
          await api.POST('/feedback/query', {
            body: {
              project_id: P,
              query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: `weave:///${P}/call/${callId}` }] } } as never,
            },
          })
        ).result,
    };
  };

  test('calls/score: each call judged through the router, its score as runnable feedback, its request a priced call', async () => {
    const h = helpers(servers[0] ?? (await start()));
    const scorer = await h.scorer('helpfulness');
    const ids = await h.calls(3);
    const before = upstream.requests.length;
    expect(await h.api.POST('/calls/score', { body: { project_id: P, call_ids: ids, scorer_refs: [scorer] } })).toEqual({ queued: 3 });
    await expect.poll(async () => (await h.judgements({ call_ids: ids, states: ['done'] })).length, { timeout: 15_000 }).toBe(3);

    const sent = upstream.requests
      .slice(before)
      .map((r) => r.body as { model: string; messages: Array<{ role: string; content: string }> });
    expect(sent.map((b) => b.messages[1]!.content).sort()).toEqual([
      'Question: Why 0?\nAnswer: Because.',
      'Question: Why 1?\nAnswer: Because.',
      'Question: Why 2?\nAnswer: Because.',
    ]);
    expect(sent[0]).toMatchObject({ model: 'grader', response_format: { type: 'json_object' } });
    expect(sent[0]!.messages[0]).toEqual({ role: 'system', content: 'You grade.' });

    for (const j of await h.judgements({ call_ids: ids })) {
      expect(j).toMatchObject({ state: 'done', attempts: 1, cost_usd: COST, error: null, monitor_ref: null });
      const [fb, ...more] = await h.feedbackOn(j.call_id);
      expect(more).toEqual([]);
      expect(fb).toMatchObject({
        id: j.feedback_id,
        feedback_type: 'wandb.runnable.helpfulness',
        payload: { output: { score: 4 } },
        runnable_ref: scorer,
        call_ref: `weave:///${P}/call/${j.judge_call_id}`,
        trigger_ref: null,
      });
      // The judge's request is a router call of the project: traced, tied to what it judged, priced.
      await expect
        .poll(async () => (await h.api.POST('/call/read', { body: { project_id: P, id: j.judge_call_id! } })).call?.ended_at ?? null)
        .not.toBeNull();
      const { call } = await h.api.POST('/call/read', { body: { project_id: P, id: j.judge_call_id! } });
      expect(call.op_name).toBe('openai.chat.completions.create');
      expect(call.attributes).toMatchObject({ judge: { judgement_id: j.id, call_id: j.call_id, scorer_ref: scorer } });
      expect(call.summary).toMatchObject({ gateway: { cost_usd: COST } });
    }
    const stats = (await h.api.POST('/judgements/stats', { body: { project_id: P } })).groups.find((g) => g.scorer_ref === scorer);
    expect(stats).toMatchObject({ monitor: null, done: 3, failed: 0, queued: 0, running: 0 });
    expect(stats!.cost_usd).toBeCloseTo(3 * Number(COST), 12);
  });

  test('a provider failure is retried; a model the router lacks fails at once, saying so', async () => {
    const h = helpers(servers[0] ?? (await start()));
    const flaky = await h.scorer('flaky');
    const lost = await h.scorer('lost', 'no-such-model');
    const [c1, c2] = await h.calls(2);
    upstream.script({ kind: 'error', status: 503 });
    await h.api.POST('/calls/score', { body: { project_id: P, call_ids: [c1!], scorer_refs: [flaky] } });
    await h.api.POST('/calls/score', { body: { project_id: P, call_ids: [c2!], scorer_refs: [lost] } });
    await expect.poll(async () => (await h.judgements({ scorer_ref: flaky }))[0]?.state, { timeout: 15_000 }).toBe('done');
    expect((await h.judgements({ scorer_ref: flaky }))[0]).toMatchObject({ attempts: 2, cost_usd: COST });
    await expect.poll(async () => (await h.judgements({ scorer_ref: lost }))[0]?.state, { timeout: 15_000 }).toBe('failed');
    expect((await h.judgements({ scorer_ref: lost }))[0]).toMatchObject({
      attempts: 1,
      error: expect.stringContaining('no-such-model') as string,
    });
    expect(await h.feedbackOn(c2!)).toEqual([]);
  });

  test('a monitor at 50% judges the calls its sampling picks, about half, and none of other ops or before it', async () => {
    const h = helpers(servers[0] ?? (await start()));
    const scorer = await h.scorer('monitor-judge');
    const earlier = await h.calls(5, 'watched');
    const { digest } = await h.api.POST('/obj/create', {
      body: {
        obj: {
          project_id: P,
          object_id: 'watch',
          val: {
            _type: 'Monitor',
            _class_name: 'Monitor',
            _bases: ['Object', 'BaseModel'],
            sampling_rate: 0.5,
            scorers: [scorer],
            call_filter: { op_names: ['watched'], query: null },
            active: true,
          } as never,
        },
      },
    });
    const monitorRef = `weave:///${P}/object/watch:${digest}`;
    const watched = await h.calls(60, 'watched');
    await h.calls(10, 'ignored');
    const picked = watched.filter((id) => sampledForMonitor('watch', id, 0.5));
    expect(picked.length).toBeGreaterThan(18);
    expect(picked.length).toBeLessThan(42);
    const mine = { monitor_ref: 'weave:///acme/judged/object/watch:*' };
    await expect.poll(async () => (await h.judgements({ ...mine, states: ['done'] })).length, { timeout: 20_000 }).toBe(picked.length);
    const judged = await h.judgements(mine);
    expect(judged.map((j) => j.call_id).sort()).toEqual([...picked].sort());
    expect(judged.every((j) => j.monitor_ref === monitorRef)).toBe(true);
    expect(earlier.some((id) => judged.some((j) => j.call_id === id))).toBe(false);
    const [fb] = await h.feedbackOn(picked[0]!);
    expect(fb).toMatchObject({ feedback_type: 'wandb.runnable.monitor-judge', trigger_ref: monitorRef, payload: { output: { score: 4 } } });
    const stats = (await h.api.POST('/judgements/stats', { body: { project_id: P } })).groups.find((g) => g.monitor === 'watch');
    expect(stats).toMatchObject({ done: picked.length, failed: 0 });
    expect(stats!.cost_usd).toBeCloseTo(picked.length * Number(COST), 10);
  });

  test('a server stopped mid-judgement and started again finishes the work, judging no call twice', async () => {
    const first = servers[0] ?? (await start());
    const h = helpers(first);
    const scorer = await h.scorer('restart-judge');
    const ids = await h.calls(3);
    // The provider holds every request: the judges are in flight when the server stops.
    upstream.setDefault({ kind: 'stall' });
    const before = upstream.requests.length;
    await h.api.POST('/calls/score', { body: { project_id: P, call_ids: ids, scorer_refs: [scorer] } });
    await upstream.request(before + 2);
    await first.close();
    servers.splice(servers.indexOf(first), 1);

    upstream.setDefault({ kind: 'json', body: ANSWER });
    const h2 = helpers(await start());
    await expect.poll(async () => (await h2.judgements({ call_ids: ids, states: ['done'] })).length, { timeout: 15_000 }).toBe(3);
    for (const id of ids) {
      const feedback = (await h2.feedbackOn(id)).filter((f) => f.runnable_ref === scorer);
      expect(feedback).toHaveLength(1);
    }
    // The stopped attempt counts; its judgement was queued again, not failed.
    expect((await h2.judgements({ call_ids: ids })).every((j) => j.attempts === 2 && j.cost_usd === COST)).toBe(true);
  });
}

describe('LLM-as-judge [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-judges-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  declare(() => `sqlite:${join(dir, 'weft.sqlite')}`);
});
describeIfPostgres('LLM-as-judge [postgres]', (getUrl) => declare(getUrl));
