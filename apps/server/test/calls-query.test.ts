// Weave's query language over HTTP: calls/stream_query and calls/query_stats answer the same
// calls for a `query`; one that Weft does not cover is a 400 with the reason, before any line of
// a stream is written.
import { expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

describeEachDatabase('calls query over HTTP', (getServer) => {
  it('filters by status and time, and refuses what it does not cover', async () => {
    const api = getServer().client('alice');
    const p = 'acme/query-http';
    const start = async (seconds: number, exception: string | null) => {
      const { id } = await api.POST('/call/start', {
        body: {
          start: {
            project_id: p,
            op_name: 'step',
            started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString(),
            attributes: {},
            inputs: {},
          },
        },
      });
      await api.POST('/call/end', {
        body: {
          end: { project_id: p, id, ended_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds + 1)).toISOString(), exception, summary: {} },
        },
      });
      return id;
    };
    await start(0, null);
    const failed = await start(10, 'boom');
    await start(20, 'late boom');
    const query = {
      $expr: {
        $and: [
          { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] },
          { $gte: [{ $getField: 'started_at' }, { $literal: Date.UTC(2026, 0, 1, 0, 0, 5) / 1000 }] },
          { $not: [{ $contains: { input: { $getField: 'exception' }, substr: { $literal: 'late' } } }] },
        ],
      },
    } as never;
    const calls = await api.callsStreamQuery({ project_id: p, query });
    expect(calls.map((c) => c.id)).toEqual([failed]);
    expect(await api.POST('/calls/query_stats', { body: { project_id: p, query } })).toEqual({ count: 1 });

    const bad = { $expr: { $regex: [{ $getField: 'op_name' }, { $literal: '^s' }] } } as never;
    for (const path of ['/calls/stream_query', '/calls/query_stats'] as const) {
      const res = await api.raw.POST(path, { body: { project_id: p, query: bad }, parseAs: 'text' });
      expect(res.response.status, path).toBe(400);
      expect(res.error).toMatchObject({ reason: expect.stringMatching(/unknown operation \$regex/) });
    }
  });

  it('filters, counts and sorts on a feedback field: the newest feedback of a type on each call', async () => {
    const api = getServer().client('alice');
    const p = 'acme/query-feedback-http';
    const ids: string[] = [];
    for (const seconds of [0, 10, 20]) {
      const started_at = new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
      const { id } = await api.POST('/call/start', {
        body: { start: { project_id: p, op_name: 'predict', started_at, attributes: {}, inputs: {} } },
      });
      ids.push(id);
    }
    const score = async (callId: string, output: unknown) =>
      api.POST('/feedback/create', {
        body: {
          project_id: p,
          weave_ref: `weave:///${p}/call/${callId}`,
          feedback_type: 'wandb.runnable.score_fn',
          payload: { output } as never,
          runnable_ref: `weave:///${p}/op/score_fn:abc`,
          call_ref: `weave:///${p}/call/${callId}`,
        },
      });
    await score(ids[0]!, { score: 0.2 });
    await score(ids[2]!, { score: 0.4 });
    // A later score of the first call is the one its field reads.
    await score(ids[0]!, { score: 0.9 });

    // Weave's "has this scorer's feedback" idiom: the call without one does not match.
    const has = {
      $expr: { $not: [{ $eq: [{ $getField: 'feedback.[wandb.runnable.score_fn].payload.output' }, { $literal: '' }] }] },
    } as never;
    expect((await api.callsStreamQuery({ project_id: p, query: has })).map((c) => c.id)).toEqual([ids[0], ids[2]]);
    expect(await api.POST('/calls/query_stats', { body: { project_id: p, query: has } })).toEqual({ count: 2 });
    const field = 'feedback.[wandb.runnable.score_fn].payload.output.score';
    const high = { $expr: { $gte: [{ $convert: { input: { $getField: field }, to: 'double' } }, { $literal: 0.5 }] } } as never;
    expect((await api.callsStreamQuery({ project_id: p, query: high })).map((c) => c.id)).toEqual([ids[0]]);
    const sorted = await api.callsStreamQuery({ project_id: p, sort_by: [{ field, direction: 'desc' }] });
    expect(sorted.map((c) => c.id)).toEqual([ids[0], ids[2], ids[1]]);

    const res = await api.raw.POST('/calls/query_stats', {
      body: { project_id: p, query: { $expr: { $eq: [{ $getField: 'feedback.[x].nope' }, { $literal: 1 }] } } as never },
      parseAs: 'text',
    });
    expect(res.response.status).toBe(400);
    expect(res.error).toMatchObject({ reason: expect.stringContaining('unknown field "feedback.[x].nope"') });
  });

  it("sorts by Weft's token total and cost, and refuses both in a query by name", async () => {
    const api = getServer().client('alice');
    const p = 'acme/query-usage-sort-http';
    const llama = 'meta-llama/Llama-3.1-8B-Instruct';
    const ids: Record<string, string> = {};
    // name → usage: none, a small and a large call of the catalogue's model, and an unpriced model.
    const usages: Record<string, Record<string, unknown> | undefined> = {
      bare: undefined,
      small: { [llama]: { prompt_tokens: 10, completion_tokens: 5 } },
      large: { [llama]: { prompt_tokens: 4000, completion_tokens: 100 } },
      unpriced: { 'acme/own-model': { total_tokens: 900 } },
    };
    for (const [i, [name, usage]] of Object.entries(usages).entries()) {
      const started_at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      const { id } = await api.POST('/call/start', {
        body: { start: { project_id: p, op_name: 'llm', started_at, attributes: {}, inputs: {} } },
      });
      await api.POST('/call/end', {
        body: { end: { project_id: p, id, ended_at: started_at, summary: (usage ? { usage } : {}) as never } },
      });
      ids[name] = id;
    }
    const order = async (field: string, direction: 'asc' | 'desc') =>
      (await api.callsStreamQuery({ project_id: p, sort_by: [{ field, direction }] })).map((c) => c.id);
    expect(await order('summary.weave.total_tokens', 'desc')).toEqual([ids.large, ids.unpriced, ids.small, ids.bare]);
    expect(await order('summary.weave.total_tokens', 'asc')).toEqual([ids.small, ids.unpriced, ids.large, ids.bare]);
    // Unpriced and without usage: last either way, then by id.
    const last = [ids.bare!, ids.unpriced!].sort();
    expect(await order('summary.weave.total_cost', 'desc')).toEqual([ids.large, ids.small, ...last]);
    expect(await order('summary.weave.total_cost', 'asc')).toEqual([ids.small, ids.large, ...last]);

    for (const field of ['summary.weave.total_tokens', 'summary.weave.total_cost']) {
      const query = { $expr: { $gt: [{ $getField: field }, { $literal: 0 }] } } as never;
      for (const path of ['/calls/stream_query', '/calls/query_stats'] as const) {
        const res = await api.raw.POST(path, { body: { project_id: p, query }, parseAs: 'text' });
        expect(res.response.status, `${path} ${field}`).toBe(400);
        expect(res.error).toMatchObject({ reason: expect.stringContaining(`${field} can be sorted on (sort_by) but not queried`) });
      }
    }
  });
});
