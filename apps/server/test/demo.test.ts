// `weft demo` seeds a project a new user can browse at once, read back through the API as any
// client would: traces with their children and two errors, a dataset in two versions, an
// annotation queue, feedback, an ART run of 20 steps; a second run writes nothing. Both databases.
import { expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { runDemo } from '../src/demo/run-demo.ts';
import { describeEachDatabase } from './test-server.ts';

describeEachDatabase('weft demo', (getServer) => {
  it('seeds a project with every kind of data, and leaves it alone the second time', async () => {
    const server = getServer();
    let out = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) } };
    const config = loadConfig({ DATABASE_URL: server.databaseUrl, DATA_DIR: '/nonexistent-unused', LOG_LEVEL: 'silent' });
    expect(await runDemo(config, 'acme/demo', io)).toBe(0);
    expect(out).toMatch(/Demo project acme\/demo: 46 calls, a dataset of 50 rows/);

    const api = server.client('alice');
    const p = 'acme/demo';
    expect((await api.GET('/projects')).projects.map((x) => x.project_id)).toContain(p);
    expect(await api.POST('/calls/query_stats', { body: { project_id: p } })).toEqual({ count: 46 });
    const roots = await api.callsStreamQuery({ project_id: p, filter: { trace_roots_only: true }, include_feedback: true });
    expect(roots).toHaveLength(12);
    expect(roots.filter((c) => c.exception)).toHaveLength(2);
    const feedback = roots.flatMap(
      (c) => ((c.summary as { weave?: { feedback?: unknown[] } }).weave?.feedback ?? []) as Array<{ feedback_type: string }>,
    );
    expect(feedback.map((f) => f.feedback_type).sort()).toEqual(['wandb.note.1', 'wandb.note.1', 'wandb.reaction.1']);
    const children = await api.POST('/calls/query_stats', { body: { project_id: p, filter: { parent_ids: [roots[0]!.id] } } });
    expect(children.count).toBe(2);

    const { objs } = await api.POST('/objs/query', { body: { project_id: p, filter: { object_ids: ['support-questions'] } } });
    expect(objs.map((o) => o.version_index).sort()).toEqual([0, 1]);
    const latest = objs.find((o) => o.is_latest)!;
    const digest = String((latest.val as { rows: string }).rows)
      .split('/')
      .pop()!;
    expect(await api.POST('/table/query_stats', { body: { project_id: p, digest } })).toEqual({ count: 50 });
    expect(await api.annotationQueuesQuery({ project_id: p })).toHaveLength(1);

    const art = server.client({ scheme: 'bearer', apiKey: server.aliceKey });
    const [model] = (await art.GET('/v1/preview/models', { params: { query: { project: p } } })).data;
    const history = await art.GET('/v1/preview/models/{model_id}/metrics', {
      params: { path: { model_id: model!.id }, query: { split: 'train' } },
    });
    expect(history.data.map((h) => h.step)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // The run learns: the last steps' mean reward is above the first ones'.
    const reward = (from: number, to: number) =>
      history.data.slice(from, to).reduce((s, h) => s + Number(h.metrics.reward), 0) / (to - from);
    expect(reward(15, 20)).toBeGreaterThan(reward(0, 5));

    out = '';
    expect(await runDemo(config, 'acme/demo', io)).toBe(0);
    expect(out).toMatch(/already holds data: nothing written/);
    expect(await api.POST('/calls/query_stats', { body: { project_id: p } })).toEqual({ count: 46 });
    expect(await runDemo(config, 'not-a-project', io)).toBe(2);
  });
});
