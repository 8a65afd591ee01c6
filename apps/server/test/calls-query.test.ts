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
});
