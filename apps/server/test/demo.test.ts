// `weft demo` seeds a project a new user can browse at once, read back through the API as any
// client would (so through the same store methods): traces with their children and two errors,
// threads, a dataset in two versions, an annotation queue, feedback with a scorer's results, an
// ART run of 20 steps with its checkpoints; a second run writes nothing. Both databases.
import { expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { runDemo } from '../src/demo/run-demo.ts';
import { describeEachDatabase } from './test-server.ts';

type Usage = Record<string, { requests: number; total_tokens: number }>;

describeEachDatabase('weft demo', (getServer) => {
  it('seeds a project with every kind of data, and leaves it alone the second time', async () => {
    const server = getServer();
    let out = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) } };
    // The URL it ends with is the configured server's, a wildcard host shown as the loopback address.
    const config = loadConfig({
      DATABASE_URL: server.databaseUrl,
      DATA_DIR: '/nonexistent-unused',
      LOG_LEVEL: 'silent',
      HOST: '0.0.0.0',
      PORT: '9123',
    });
    expect(await runDemo(config, 'acme/demo', io)).toBe(0);
    expect(out).toMatch(/traces: 48 calls…\n[\s\S]*ART run: 20 steps…/);
    expect(out).toMatch(
      /Demo project acme\/demo: 12 traces of 48 calls, a dataset of 50 rows, an annotation queue, 9 feedback items, an ART run of 20 steps with 352 trajectories/,
    );
    expect(out).toMatch(/open http:\/\/127\.0\.0\.1:9123\/acme\/demo\/traces\n$/);

    const api = server.client('alice');
    const p = 'acme/demo';
    expect((await api.GET('/projects')).projects.map((x) => x.project_id)).toContain(p);
    expect(await api.POST('/calls/query_stats', { body: { project_id: p } })).toEqual({ count: 48 });
    const roots = await api.callsStreamQuery({ project_id: p, filter: { trace_roots_only: true }, include_feedback: true });
    expect(roots).toHaveLength(12);
    expect(roots.every((c) => /^weave:\/\/\/acme\/demo\/op\/run_agent:[A-Za-z0-9]{43}$/.test(c.op_name))).toBe(true);
    // Spread over the last hour.
    const starts = roots.map((c) => Date.parse(c.started_at));
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThan(50 * 60_000);
    expect(Date.now() - Math.min(...starts)).toBeLessThan(61 * 60_000);
    expect(roots.filter((c) => c.exception)).toHaveLength(2);
    expect(new Set(roots.map((c) => c.thread_id).filter(Boolean))).toEqual(new Set(['support-chat-1', 'support-chat-2', 'support-chat-3']));

    // Each trace: a retrieval, a tool call and an LLM call with chat messages, a choice and usage;
    // in a failed trace the LLM call holds the error.
    const opOf = (c: { op_name: string }) => c.op_name.split('/op/')[1]!.split(':')[0];
    for (const root of roots) {
      const children = await api.callsStreamQuery({ project_id: p, filter: { parent_ids: [root.id] } });
      expect(children.map(opOf)).toEqual([
        'retrieve_docs',
        expect.stringMatching(/^(lookup|get|check)_/),
        'openai.chat.completions.create',
      ]);
      expect(children.every((c) => c.trace_id === root.trace_id && c.thread_id === root.thread_id)).toBe(true);
      const llm = children[2]!;
      expect((llm.inputs as { messages: Array<{ role: string }> }).messages.map((m) => m.role)).toEqual(['system', 'user']);
      if (root.exception) {
        expect(llm.exception).toMatch(/RateLimitError/);
        expect(llm.output).toBeNull();
      } else {
        expect(llm.exception ?? null).toBeNull();
        expect((llm.output as { choices: Array<{ message: { role: string } }> }).choices[0]!.message.role).toBe('assistant');
        const usage = (llm.summary as { usage: Usage }).usage[(llm.inputs as { model: string }).model]!;
        expect(usage.requests).toBe(1);
        expect(usage.total_tokens).toBeGreaterThan(0);
        // The root carries its children's usage (the traces page shows tokens and cost per root).
        expect((root.summary as { usage: Usage }).usage).toEqual((llm.summary as { usage: Usage }).usage);
      }
    }

    const feedback = roots.flatMap(
      (c) =>
        ((c.summary as { weave?: { feedback?: unknown[] } }).weave?.feedback ?? []) as Array<{ feedback_type: string; payload: unknown }>,
    );
    const types = feedback.map((f) => f.feedback_type);
    expect(types.filter((t) => t === 'wandb.reaction.1')).toHaveLength(1);
    expect(types.filter((t) => t === 'wandb.note.1')).toHaveLength(2);
    const scores = feedback.filter((f) => f.feedback_type === 'wandb.runnable.AnswerCorrectness');
    expect(scores).toHaveLength(6);
    expect(scores.map((f) => f.payload)).toContainEqual({ output: { correct: false, score: 0 } });

    const { objs } = await api.POST('/objs/query', { body: { project_id: p, filter: { object_ids: ['support-questions'] } } });
    expect(objs.map((o) => o.version_index).sort()).toEqual([0, 1]);
    const latest = objs.find((o) => o.is_latest)!;
    expect(latest.base_object_class).toBe('Dataset');
    const digest = String((latest.val as { rows: string }).rows)
      .split('/')
      .pop()!;
    expect(await api.POST('/table/query_stats', { body: { project_id: p, digest } })).toEqual({ count: 50 });
    const { rows } = await api.POST('/table/query', { body: { project_id: p, digest, limit: 1 } });
    expect(rows[0]!.val).toMatchObject({ question: expect.any(String), expected: { intent: 'account', difficulty: 1 } });
    const scorer = await api.POST('/objs/query', { body: { project_id: p, filter: { object_ids: ['AnswerCorrectness'] } } });
    expect(scorer.objs.map((o) => o.base_object_class)).toEqual(['Scorer']);
    expect(await api.annotationQueuesQuery({ project_id: p })).toHaveLength(1);

    const art = server.client({ scheme: 'bearer', apiKey: server.aliceKey });
    const [model] = (await art.GET('/v1/preview/models', { params: { query: { project: p } } })).data;
    const modelPath = { model_id: model!.id };
    const checkpoints = await art.GET('/v1/preview/models/{model_id}/checkpoints', {
      params: { path: modelPath, query: { limit: 100 } },
    });
    expect(checkpoints.data.map((c) => c.step)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(checkpoints.data.every((c) => typeof c.metrics['train/loss'] === 'number')).toBe(true);
    // The logs of steps 1–19 were recorded at those checkpoints and added their aggregates.
    expect(checkpoints.data[4]!.metrics).toHaveProperty('train/reward');
    const history = await art.GET('/v1/preview/models/{model_id}/metrics', { params: { path: modelPath, query: { split: 'train' } } });
    expect(history.data.map((h) => h.step)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(history.data.every((h) => h.trajectory_count === 16 && h.group_count === 4)).toBe(true);
    // The run learns: the last steps' mean reward is above the first ones'.
    const reward = (from: number, to: number) =>
      history.data.slice(from, to).reduce((s, h) => s + Number(h.metrics.reward), 0) / (to - from);
    expect(reward(15, 20)).toBeGreaterThan(reward(0, 5));
    const val = await art.GET('/v1/preview/models/{model_id}/metrics', { params: { path: modelPath, query: { split: 'val' } } });
    expect(val.data.map((h) => h.step)).toEqual([4, 9, 14, 19]);
    const last = await art.GET('/v1/preview/models/{model_id}/trajectories', {
      params: { path: modelPath, query: { split: 'train', step: 19, limit: 100 } },
    });
    expect(last.data).toHaveLength(16);

    out = '';
    expect(await runDemo(config, 'acme/demo', io)).toBe(0);
    expect(out).toMatch(/already holds data: nothing written[\s\S]*open http:/);
    expect(await api.POST('/calls/query_stats', { body: { project_id: p } })).toEqual({ count: 48 });
    expect(await runDemo(config, 'not-a-project', io)).toBe(2);
  });
});
