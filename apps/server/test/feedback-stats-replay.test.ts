// What Weave's monitoring dashboards send to feedback/payload_schema and feedback/stats (the
// Python bindings' pydantic bodies: every optional field present, null when unset), over HTTP on
// both databases: the schema's paths become the stats' metrics, as Weave's UI does, and what Weft
// does not honour is a 422 in the seed's body.
import { expect, it } from 'vitest';
import { describeEachDatabase } from './test-server.ts';

const P = 'acme/feedback-stats-replay';
const CALL = `weave:///${P}/call/0197a000-0000-7000-8000-0000000000aa`;

describeEachDatabase('feedback stats replay (Weave dashboards)', (getServer) => {
  async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const { url, aliceKey } = getServer();
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  it('finds the payload paths, then aggregates them over the last hour', async () => {
    const scores: [number, boolean][] = [
      [0.5, true],
      [1, false],
      [0.75, true],
    ];
    for (const [score, passed] of scores) {
      const created = await post('/feedback/create', {
        project_id: P,
        weave_ref: CALL,
        feedback_type: 'judge',
        payload: { output: { score, passed, reason: 'because' } },
        creator: null,
        annotation_ref: null,
        runnable_ref: null,
        call_ref: null,
        trigger_ref: null,
        wb_user_id: null,
      });
      expect(created.status).toBe(200);
    }
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const schema = await post('/feedback/payload_schema', {
      project_id: P,
      start,
      end: null,
      feedback_type: 'judge',
      trigger_ref: null,
      sample_limit: 2000,
    });
    expect(schema).toEqual({
      status: 200,
      json: {
        paths: [
          { json_path: 'output.passed', value_type: 'boolean' },
          { json_path: 'output.reason', value_type: 'categorical' },
          { json_path: 'output.score', value_type: 'numeric' },
        ],
      },
    });

    const metrics = (schema.json.paths as { json_path: string; value_type: string }[]).map((p) => ({
      json_path: p.json_path,
      value_type: p.value_type,
      aggregations: [],
      percentiles: [],
    }));
    const stats = await post('/feedback/stats', {
      project_id: P,
      start,
      end: null,
      feedback_type: null,
      trigger_ref: null,
      granularity: null,
      timezone: 'UTC',
      metrics,
    });
    expect(stats.status).toBe(200);
    // An hour's window: Weave's 5-minute buckets, 12 or 13 of them (the first starts before `start`).
    expect(stats.json).toMatchObject({ start, granularity: 300, timezone: 'UTC' });
    const buckets = stats.json.buckets as Record<string, unknown>[];
    expect(buckets.length).toBeGreaterThanOrEqual(12);
    expect(buckets.length).toBeLessThanOrEqual(13);
    expect(buckets.reduce((n, b) => n + (b.count as number), 0)).toBe(3);
    expect(stats.json.window_stats).toEqual({
      output_passed: { count_true: 2, count_false: 1 },
      output_reason: { count: 3 },
      output_score: { avg: 0.75, min: 0.5, max: 1 },
    });
  });

  it('answers 422 in the seed body naming what Weft does not honour', async () => {
    const base = { project_id: P, start: '2026-01-01T00:00:00Z', metrics: [{ json_path: 'output.score' }] };
    expect(await post('/feedback/stats', { ...base, timezone: 'Not/A_Zone' })).toEqual({
      status: 422,
      json: { detail: [{ loc: ['body', 'timezone'], msg: 'Not an IANA time zone: "Not/A_Zone"', type: 'value_error' }] },
    });
    const pct = await post('/feedback/stats', { ...base, metrics: [{ json_path: 'output.score', percentiles: [95] }] });
    expect([pct.status, (pct.json.detail as { loc: string[] }[])[0]!.loc]).toEqual([422, ['body', 'metrics', '0', 'percentiles']]);
    const tooFine = await post('/feedback/stats', { ...base, end: '2026-01-02T00:00:00Z', granularity: 1 });
    expect([tooFine.status, (tooFine.json.detail as { loc: string[] }[])[0]!.loc]).toEqual([422, ['body', 'granularity']]);
    const unknown = await post('/feedback/stats', { ...base, group_by: ['scorer_id'] });
    expect([unknown.status, (unknown.json.detail as { loc: string[] }[])[0]!.loc]).toEqual([422, ['body', 'group_by']]);
  });
});
