// callsStats against answers computed by hand: every bucket (empty ones included), each metric
// and aggregation, percentiles by ClickHouse's linear interpolation, tokens and costs by model,
// the filters, and another project's calls never counted. The window itself: calls-stats-window.test.ts.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { callsStats } from '../../src/calls/calls-stats.ts';
import { describeEachDialect } from '../dialects.ts';
import { catalogue } from './call-fixtures.ts';
import { H, HOUR, P, seedStats, TIMES } from './stats-fixtures.ts';

const LATENCY: T.CallMetricSpec = { metric: 'latency_ms', aggregations: ['sum', 'avg', 'min', 'max', 'count'], percentiles: [50, 99] };
const COUNTS: T.CallMetricSpec[] = [{ metric: 'call_count' }, { metric: 'error_count', aggregations: ['sum'] }];

// ClickHouse's quantile over sorted values: i = q·(n−1), k = floor(i), v[k]·(k+1−i) + v[k+1]·(i−k).
const p99of3 = (lo: number, hi: number) => lo * (2 - 0.99 * 2) + hi * (0.99 * 2 - 1);
const EMPTY_LATENCY = {
  sum_latency_ms: 0,
  avg_latency_ms: 0,
  min_latency_ms: null,
  max_latency_ms: null,
  count_latency_ms: 0,
  p50_latency_ms: null,
  p99_latency_ms: null,
};

describeEachDialect('calls stats', (getDb) => {
  const stats = (req: Partial<T.CallStatsReq>) => callsStats(getDb(), catalogue, { project_id: P, ...HOUR, ...req });

  beforeAll(() => seedStats(getDb()));

  it('answers every bucket of the window, empty ones included, with each call metric', async () => {
    const res = await stats({ call_metrics: [...COUNTS, LATENCY] });
    expect(res).toMatchObject({
      start: `${H}00:00.000Z`,
      end: '2025-06-03T11:00:00.000Z',
      granularity: 900,
      timezone: 'UTC',
      usage_buckets: [],
    });
    expect(res.call_buckets).toEqual([
      // c1, c2, c3: latencies 100, 300, 1000; c2 failed.
      {
        timestamp: TIMES[0],
        sum_call_count: 3,
        sum_error_count: 1,
        sum_latency_ms: 1400,
        avg_latency_ms: 1400 / 3,
        min_latency_ms: 100,
        max_latency_ms: 1000,
        count_latency_ms: 3,
        p50_latency_ms: 300,
        p99_latency_ms: p99of3(300, 1000),
        count: 3,
      },
      { timestamp: TIMES[1], sum_call_count: 0, sum_error_count: 0, ...EMPTY_LATENCY, count: 0 },
      // c4 runs: counted, no latency.
      { timestamp: TIMES[2], sum_call_count: 1, sum_error_count: 0, ...EMPTY_LATENCY, count: 1 },
      // c5 starts at 10:59:59.999, the window's last millisecond.
      {
        timestamp: TIMES[3],
        sum_call_count: 1,
        sum_error_count: 0,
        sum_latency_ms: 50,
        avg_latency_ms: 50,
        min_latency_ms: 50,
        max_latency_ms: 50,
        count_latency_ms: 1,
        p50_latency_ms: 50,
        p99_latency_ms: 50,
        count: 1,
      },
    ]);
    // The keys in Weave's order: timestamp, the metrics as asked, count.
    expect(Object.keys(res.call_buckets[0]!)).toEqual([
      'timestamp',
      'sum_call_count',
      'sum_error_count',
      'sum_latency_ms',
      'avg_latency_ms',
      'min_latency_ms',
      'max_latency_ms',
      'count_latency_ms',
      'p50_latency_ms',
      'p99_latency_ms',
      'count',
    ]);
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
    const empty = {
      sum_input_tokens: 0,
      p50_input_tokens: null,
      sum_output_tokens: 0,
      sum_total_tokens: 0,
      count_total_tokens: 0,
      min_total_tokens: null,
      sum_cache_read_input_tokens: 0,
      sum_input_cost: 0,
      sum_output_cost: 0,
      sum_total_cost: 0,
      count: 0,
    };
    expect(res.call_buckets).toEqual([]);
    expect(res.usage_buckets).toEqual([
      // claude-b has no price of this project nor of the catalogue; its total_tokens is no number.
      { timestamp: TIMES[0], model: 'claude-b', ...empty, sum_input_tokens: 100, p50_input_tokens: 100, sum_output_tokens: 50, count: 1 },
      // gpt-a: c1 (10 in, 5 out) and c2 (7 in, 3 out, 2 cache reads); newest price 0.5 / 2, cache reads 0.1.
      {
        timestamp: TIMES[0],
        model: 'gpt-a',
        sum_input_tokens: 17,
        p50_input_tokens: 7 * 0.5 + 10 * 0.5,
        sum_output_tokens: 8,
        sum_total_tokens: 25,
        count_total_tokens: 2,
        min_total_tokens: 10,
        sum_cache_read_input_tokens: 2,
        sum_input_cost: 7.7,
        sum_output_cost: 16,
        sum_total_cost: 7.7 + 16,
        count: 2,
      },
      { timestamp: TIMES[1], model: 'claude-b', ...empty },
      { timestamp: TIMES[1], model: 'gpt-a', ...empty },
      { timestamp: TIMES[2], model: 'claude-b', ...empty },
      { timestamp: TIMES[2], model: 'gpt-a', ...empty },
      { timestamp: TIMES[3], model: 'claude-b', ...empty },
      {
        timestamp: TIMES[3],
        model: 'gpt-a',
        ...empty,
        sum_input_tokens: 1,
        p50_input_tokens: 1,
        sum_output_tokens: 1,
        sum_total_tokens: 2,
        count_total_tokens: 1,
        min_total_tokens: 2,
        sum_input_cost: 0.5,
        sum_output_cost: 2,
        sum_total_cost: 2.5,
        count: 1,
      },
    ]);
  });

  it('honours the filter', async () => {
    const counts = async (filter: T.CallsFilter) =>
      (await stats({ call_metrics: [{ metric: 'call_count' }], filter })).call_buckets.map((b) => b.count);
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
});
