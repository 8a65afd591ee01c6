// callsStats against answers computed by hand: every bucket (empty ones included), each metric
// and aggregation, percentiles by ClickHouse's linear interpolation, tokens and costs by model,
// the filters, the window's edges (start inclusive, end exclusive, to the millisecond), and
// another project's calls never counted.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { callsStats } from '../../src/calls/calls-stats.ts';
import { describeEachDialect } from '../dialects.ts';
import { callsOf, catalogue, ctx, endReq, startReq } from './call-fixtures.ts';

const P = 'stats/main';
const OTHER = 'stats/other';
const H = '2025-06-03T10:';

interface Spec {
  id: string;
  start: string;
  end?: string;
  op?: string;
  parent?: string;
  exception?: string;
  usage?: Record<string, unknown>;
  project?: string;
}

const CALLS: Spec[] = [
  { id: 'c1', start: `${H}00:00.000Z`, end: `${H}00:00.100Z`, usage: { 'gpt-a': { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } },
  {
    id: 'c2',
    start: `${H}05:00.000Z`,
    end: `${H}05:00.300Z`,
    exception: 'boom',
    usage: {
      'gpt-a': { input_tokens: 7, output_tokens: 3, total_tokens: 10, cache_read_input_tokens: 2 },
      'claude-b': { prompt_tokens: 100, completion_tokens: 50, total_tokens: 'many' },
    },
  },
  { id: 'c3', start: `${H}10:00.000Z`, end: `${H}10:01.000Z`, op: 'op_b', parent: 'c1' },
  // Unfinished: counted, but no latency.
  { id: 'c4', start: `${H}40:00.000Z` },
  { id: 'c5', start: `${H}59:59.999Z`, end: '2025-06-03T11:00:00.049Z', op: 'op_b', usage: { 'gpt-a': { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } } },
  // Outside [10:00, 11:00): at the end, and a millisecond before the start.
  { id: 'c6', start: '2025-06-03T11:00:00.000Z', end: '2025-06-03T11:00:01.000Z', usage: { 'gpt-a': { prompt_tokens: 1000 } } },
  { id: 'c7', start: '2025-06-03T09:59:59.999Z', end: `${H}00:00.000Z`, usage: { 'gpt-a': { prompt_tokens: 1000 } } },
  // Deleted, and another project's.
  { id: 'c8', start: `${H}01:00.000Z`, end: `${H}01:01.000Z`, usage: { 'gpt-a': { prompt_tokens: 1000 } } },
  { id: 'x1', start: `${H}00:00.000Z`, end: `${H}00:09.000Z`, project: OTHER, usage: { 'other-model': { prompt_tokens: 5000 } } },
];

const HOUR = { start: `${H}00:00Z`, end: '2025-06-03T11:00:00Z', granularity: 900 };
const TIMES = ['10:00', '10:15', '10:30', '10:45'].map((t) => `2025-06-03T${t}:00.000Z`);

const LATENCY: T.CallMetricSpec = { metric: 'latency_ms', aggregations: ['sum', 'avg', 'min', 'max', 'count'], percentiles: [50, 99] };
const COUNTS: T.CallMetricSpec[] = [{ metric: 'call_count' }, { metric: 'error_count', aggregations: ['sum'] }];

// ClickHouse's quantile over sorted values: i = q·(n−1), k = floor(i), v[k]·(k+1−i) + v[k+1]·(i−k).
const p99of3 = (lo: number, hi: number) => lo * (2 - 0.99 * 2) + hi * (0.99 * 2 - 1);
const EMPTY_LATENCY = { sum_latency_ms: 0, avg_latency_ms: 0, min_latency_ms: null, max_latency_ms: null, count_latency_ms: 0, p50_latency_ms: null, p99_latency_ms: null };

describeEachDialect('calls stats', (getDb) => {
  const stats = (req: Partial<T.CallStatsReq>) => callsStats(getDb(), catalogue, { project_id: P, ...HOUR, ...req });

  beforeAll(async () => {
    const db = getDb();
    const calls = callsOf(db);
    for (const c of CALLS) {
      const project = c.project ?? P;
      const start = { id: c.id, trace_id: c.parent ?? c.id, started_at: c.start, op_name: c.op ?? 'op_a', ...(c.parent ? { parent_id: c.parent } : {}) };
      await calls.callStart(startReq(project, start), ctx);
      const summary = c.usage ? { usage: c.usage } : {};
      if (c.end) await calls.callEnd(endReq(project, c.id, { ended_at: c.end, summary, ...(c.exception ? { exception: c.exception } : {}) }), ctx);
    }
    await db.kysely.updateTable('calls').set({ deleted_at: '2025-06-04T00:00:00.000Z' }).where('id', '=', 'c8').execute();
    const price = { provider_id: 'default', prompt_token_cost_unit: 'USD', completion_token_cost_unit: 'USD', svc_user_id: 'alice' };
    await db.kysely
      .insertInto('llm_token_prices')
      .values([
        // An older price of gpt-a, and the newest, which the costs use (with a cache-read price).
        { ...price, project_id: P, id: 'p-old', llm_id: 'gpt-a', effective_date: '2025-01-01T00:00:00.000Z', created_at: '2025-01-01T00:00:00.000Z', prompt_token_cost: '9', completion_token_cost: '9', cache_read_input_token_cost: null, cache_creation_input_token_cost: null },
        { ...price, project_id: P, id: 'p-new', llm_id: 'gpt-a', effective_date: '2025-02-01T00:00:00.000Z', created_at: '2025-02-01T00:00:00.000Z', prompt_token_cost: '0.5', completion_token_cost: '2', cache_read_input_token_cost: '0.1', cache_creation_input_token_cost: null },
        // Another project's price of claude-b: never this project's.
        { ...price, project_id: OTHER, id: 'p-other', llm_id: 'claude-b', effective_date: '2025-02-01T00:00:00.000Z', created_at: '2025-02-01T00:00:00.000Z', prompt_token_cost: '1', completion_token_cost: '1', cache_read_input_token_cost: null, cache_creation_input_token_cost: null },
      ])
      .execute();
  });

  it('answers every bucket of the window, empty ones included, with each call metric', async () => {
    const res = await stats({ call_metrics: [...COUNTS, LATENCY] });
    expect(res).toMatchObject({ start: `${H}00:00.000Z`, end: '2025-06-03T11:00:00.000Z', granularity: 900, timezone: 'UTC', usage_buckets: [] });
    expect(res.call_buckets).toEqual([
      // c1, c2, c3: latencies 100, 300, 1000; c2 failed.
      { timestamp: TIMES[0], sum_call_count: 3, sum_error_count: 1, sum_latency_ms: 1400, avg_latency_ms: 1400 / 3, min_latency_ms: 100, max_latency_ms: 1000, count_latency_ms: 3, p50_latency_ms: 300, p99_latency_ms: p99of3(300, 1000), count: 3 },
      { timestamp: TIMES[1], sum_call_count: 0, sum_error_count: 0, ...EMPTY_LATENCY, count: 0 },
      // c4 runs: counted, no latency.
      { timestamp: TIMES[2], sum_call_count: 1, sum_error_count: 0, ...EMPTY_LATENCY, count: 1 },
      // c5 starts at 10:59:59.999, the window's last millisecond.
      { timestamp: TIMES[3], sum_call_count: 1, sum_error_count: 0, sum_latency_ms: 50, avg_latency_ms: 50, min_latency_ms: 50, max_latency_ms: 50, count_latency_ms: 1, p50_latency_ms: 50, p99_latency_ms: 50, count: 1 },
    ]);
    // The keys in Weave's order: timestamp, the metrics as asked, count.
    expect(Object.keys(res.call_buckets[0]!)).toEqual(['timestamp', 'sum_call_count', 'sum_error_count', 'sum_latency_ms', 'avg_latency_ms', 'min_latency_ms', 'max_latency_ms', 'count_latency_ms', 'p50_latency_ms', 'p99_latency_ms', 'count']);
  });

  it('answers tokens and costs by model: every bucket × every model of the window', async () => {
    const res = await stats({
      usage_metrics: [
        { metric: 'input_tokens', aggregations: ['sum'], percentiles: [50] },
        { metric: 'output_tokens' },
        { metric: 'total_tokens', aggregations: ['sum', 'count', 'min'] },
        { metric: 'cache_read_input_tokens', aggregations: null, percentiles: null },
        { metric: 'input_cost' },
        { metric: 'output_cost' },
        { metric: 'total_cost' },
      ],
    });
    const empty = { sum_input_tokens: 0, p50_input_tokens: null, sum_output_tokens: 0, sum_total_tokens: 0, count_total_tokens: 0, min_total_tokens: null, sum_cache_read_input_tokens: 0, sum_input_cost: 0, sum_output_cost: 0, sum_total_cost: 0, count: 0 };
    expect(res.call_buckets).toEqual([]);
    expect(res.usage_buckets).toEqual([
      // claude-b has no price of this project nor of the catalogue; its total_tokens is no number.
      { timestamp: TIMES[0], model: 'claude-b', ...empty, sum_input_tokens: 100, p50_input_tokens: 100, sum_output_tokens: 50, count: 1 },
      // gpt-a: c1 (10 in, 5 out) and c2 (7 in, 3 out, 2 cache reads); newest price 0.5 / 2, cache reads 0.1.
      { timestamp: TIMES[0], model: 'gpt-a', sum_input_tokens: 17, p50_input_tokens: 7 * 0.5 + 10 * 0.5, sum_output_tokens: 8, sum_total_tokens: 25, count_total_tokens: 2, min_total_tokens: 10, sum_cache_read_input_tokens: 2, sum_input_cost: 7.7, sum_output_cost: 16, sum_total_cost: 7.7 + 16, count: 2 },
      { timestamp: TIMES[1], model: 'claude-b', ...empty },
      { timestamp: TIMES[1], model: 'gpt-a', ...empty },
      { timestamp: TIMES[2], model: 'claude-b', ...empty },
      { timestamp: TIMES[2], model: 'gpt-a', ...empty },
      { timestamp: TIMES[3], model: 'claude-b', ...empty },
      { timestamp: TIMES[3], model: 'gpt-a', ...empty, sum_input_tokens: 1, p50_input_tokens: 1, sum_output_tokens: 1, sum_total_tokens: 2, count_total_tokens: 1, min_total_tokens: 2, sum_input_cost: 0.5, sum_output_cost: 2, sum_total_cost: 2.5, count: 1 },
    ]);
  });

  it('honours the filter', async () => {
    const counts = async (filter: T.CallsFilter) => (await stats({ call_metrics: [{ metric: 'call_count' }], filter })).call_buckets.map((b) => b.count);
    expect(await counts({ op_names: ['op_b'] })).toEqual([1, 0, 0, 1]);
    expect(await counts({ trace_roots_only: true })).toEqual([2, 0, 1, 1]);
    expect(await counts({ parent_ids: ['c1'] })).toEqual([1, 0, 0, 0]);
    expect(await counts({ trace_ids: ['c1'] })).toEqual([2, 0, 0, 0]);
    expect(await counts({ call_ids: ['c2', 'c4', 'x1'] })).toEqual([1, 0, 1, 0]);
    expect(await counts({ wb_user_ids: ['alice'] })).toEqual([3, 0, 1, 1]);
    expect(await counts({ wb_user_ids: ['bob'] })).toEqual([0, 0, 0, 0]);
    // Models are those of the filtered calls only.
    const usage = await stats({ usage_metrics: [{ metric: 'input_tokens' }], filter: { op_names: ['op_b'] } });
    expect(new Set(usage.usage_buckets.map((b) => b.model))).toEqual(new Set(['gpt-a']));
  });

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
    const refused = (req: Partial<T.CallStatsReq>, loc: string[]) => expect(stats(req)).rejects.toMatchObject({ status: 422, detail: [{ loc }] });
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
    await expect(callsStats(getDb(), catalogue, { ...req, end: '2025-07-04T10:00:00Z', granularity: 1 })).rejects.toMatchObject({ status: 422, detail: [{ loc: ['body', 'granularity'] }] });
    const day = await callsStats(getDb(), catalogue, { ...req, end: '2025-06-04T10:00:00Z', granularity: 3600 });
    expect(day.usage_buckets).toHaveLength(24 * 11);
  });
});
