// callsStats's window: buckets on multiples of the granularity, start inclusive and end
// exclusive to the millisecond, Weave's default granularity ladder and bucket bound, time zones,
// the refusals (422) and the caps, and the index the statements read.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { callsStats } from '../../src/calls/calls-stats.ts';
import { callBucketsQuery, usageBucketsQuery } from '../../src/calls/stats-query.ts';
import { metricColumns, resolveWindow } from '../../src/calls/stats-window.ts';
import { describeEachDialect } from '../dialects.ts';
import { queryPlan } from '../query-plan.ts';
import { callsOf, catalogue, ctx, endReq, startReq } from './call-fixtures.ts';
import { H, HOUR, P, seedStats, TIMES } from './stats-fixtures.ts';

describeEachDialect('calls stats window', (getDb) => {
  const stats = (req: Partial<T.CallStatsReq>) => callsStats(getDb(), catalogue, { project_id: P, ...HOUR, ...req });

  beforeAll(() => seedStats(getDb()));

  it('places buckets on multiples of the granularity; start inclusive, end exclusive, past the millisecond', async () => {
    // A start past 09:59:59.999 keeps c7 out; the first bucket starts at 09:45 (Weave's toStartOfInterval).
    const res = await stats({ start: '2025-06-03T09:59:59.9995Z', call_metrics: [{ metric: 'call_count' }] });
    expect(res.call_buckets.map((b) => [b.timestamp, b.count])).toEqual([
      ['2025-06-03T09:45:00.000Z', 0],
      [TIMES[0], 3],
      [TIMES[1], 0],
      [TIMES[2], 1],
      [TIMES[3], 1],
    ]);
    const withC7 = await stats({ start: '2025-06-03T09:59:59.999Z', call_metrics: [{ metric: 'call_count' }] });
    expect(withC7.call_buckets.map((b) => b.count)).toEqual([1, 3, 0, 1, 1]);
    const beforeC5 = await stats({ end: '2025-06-03T10:59:59.999Z', call_metrics: [{ metric: 'call_count' }] });
    expect(beforeC5.call_buckets.map((b) => b.count)).toEqual([3, 0, 1, 0]);
  });

  it('chooses the default granularity by the window (Weave ladder) and answers each bucket', async () => {
    const twoHours = await stats({ granularity: null, end: '2025-06-03T12:00:00Z', call_metrics: [{ metric: 'call_count' }] });
    expect(twoHours.granularity).toBe(300);
    expect(twoHours.call_buckets).toHaveLength(24);
    expect(twoHours.call_buckets.reduce((n, b) => n + b.count, 0)).toBe(6);
    const day = await stats({ granularity: undefined, end: '2025-06-04T10:00:00Z', call_metrics: [{ metric: 'call_count' }] });
    // A day from 10:00: 6-hour buckets from 06:00 (a multiple of 6 hours since the epoch).
    expect([day.granularity, day.call_buckets.length, day.call_buckets[0]!.timestamp]).toEqual([21600, 5, '2025-06-03T06:00:00.000Z']);
    // 31 days at 1 s would be 2,678,400 buckets: raised to 268 s, as Weave's ensure_max_buckets does.
    const month = await stats({ granularity: 1, end: '2025-07-04T10:00:00Z', call_metrics: [{ metric: 'call_count' }] });
    expect(month.granularity).toBe(268);
    expect(month.call_buckets.length).toBeLessThanOrEqual(10_000);
  });

  it('echoes an IANA time zone with the same buckets', async () => {
    const res = await stats({ timezone: 'America/New_York', call_metrics: [{ metric: 'call_count' }] });
    expect(res.timezone).toBe('America/New_York');
    expect(res.call_buckets.map((b) => b.timestamp)).toEqual(TIMES);
  });

  it('refuses with 422 what it cannot honour, naming the field', async () => {
    const refused = (req: Partial<T.CallStatsReq>, loc: string[]) =>
      expect(stats(req)).rejects.toMatchObject({ status: 422, detail: [{ loc }] });
    await refused({ end: '2025-07-04T10:00:00.001Z' }, ['body', 'end']);
    await refused({ end: '2025-06-03T09:00:00Z' }, ['body', 'end']);
    await refused({ timezone: 'Mars/Olympus' }, ['body', 'timezone']);
    await refused({ call_metrics: [{ metric: 'call_count' }, { metric: 'call_count' }] }, ['body', 'call_metrics', '1', 'metric']);
    await refused({ call_metrics: [{ metric: 'latency_ms', percentiles: [50, 50.0] }] }, ['body', 'call_metrics', '0', 'percentiles']);
    await refused({ usage_metrics: [{ metric: 'total_cost', aggregations: ['avg'] }] }, ['body', 'usage_metrics', '0', 'aggregations']);
    await refused({ usage_metrics: [{ metric: 'input_cost', percentiles: [50] }] }, ['body', 'usage_metrics', '0', 'percentiles']);
  });

  it('refuses with 422 a usage answer of more than 100,000 rows', async () => {
    const usage = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`m-${i}`, { prompt_tokens: 1 }]));
    const calls = callsOf(getDb());
    await calls.callStart(startReq('stats/many', { id: 'm1', trace_id: 'm1', started_at: `${H}00:00.000Z` }), ctx);
    await calls.callEnd(endReq('stats/many', 'm1', { ended_at: `${H}00:01.000Z`, summary: { usage } }), ctx);
    const req = { project_id: 'stats/many', start: `${H}00:00Z`, usage_metrics: [{ metric: 'input_tokens' as const }] };
    // 31 days in 268 s buckets × 11 models: past the cap; a day in hours is 24 × 11 rows.
    await expect(callsStats(getDb(), catalogue, { ...req, end: '2025-07-04T10:00:00Z', granularity: 1 })).rejects.toMatchObject({
      status: 422,
      detail: [{ loc: ['body', 'granularity'] }],
    });
    const day = await callsStats(getDb(), catalogue, { ...req, end: '2025-06-04T10:00:00Z', granularity: 3600 });
    expect(day.usage_buckets).toHaveLength(24 * 11);
  });

  it('reads the window as a range of the index of calls by project and start time', async () => {
    const db = getDb();
    const req: T.CallStatsReq = { project_id: P, ...HOUR };
    const window = resolveWindow(req);
    const latency = metricColumns('call_metrics', [{ metric: 'latency_ms', aggregations: ['avg'], percentiles: [50, 99] }]);
    const tokens = metricColumns('usage_metrics', [{ metric: 'input_tokens', percentiles: [50] }, { metric: 'total_cost' }]);
    for (const query of [callBucketsQuery(db, req, window, latency), usageBucketsQuery(db, req, window, tokens, true, 10)]) {
      const plan = await queryPlan(db, query.compile(db.kysely), { seqscanOff: 'calls' });
      expect(plan).toContain('calls_started_idx');
    }
  });
});
