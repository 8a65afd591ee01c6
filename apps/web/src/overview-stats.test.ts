import type { CallBucket, FeedbackStatsBucket, UsageBucket } from '@weft/types';
import { describe, expect, it } from 'vitest';
import {
  callSeries,
  callTotals,
  feedbackSeries,
  feedbackStatsBody,
  latencySeries,
  modelTotals,
  numericPaths,
  rangeOf,
  usageSeries,
  windowOf,
} from './overview-stats.ts';

const T = '2026-11-25T08:00:00.000Z';
const T2 = '2026-11-25T08:30:00.000Z';
const x = Date.parse(T);
const x2 = Date.parse(T2);
// The generated bucket types (an index signature of numbers beside `timestamp`) admit no literal.
const buckets = <B>(rows: object[]) => rows as B[];

describe('overview statistics', () => {
  it('asks for the window that ends at the given time, at the range’s granularity; an unknown range is 24 h', () => {
    expect(windowOf('acme/bot', rangeOf('1h'), Date.parse(T))).toEqual({
      project_id: 'acme/bot',
      start: '2026-11-25T07:00:00.000Z',
      end: T,
      granularity: 60,
    });
    expect(rangeOf('nope').id).toBe('24h');
    expect(rangeOf(null).id).toBe('24h');
  });

  it('sums calls and errors, and leaves a bucket without latency as a gap', () => {
    const calls = buckets<CallBucket>([
      { timestamp: T, count: 3, sum_call_count: 3, sum_error_count: 1, p50_latency_ms: 100, p95_latency_ms: 200, p99_latency_ms: 210 },
      { timestamp: T2, count: 0, sum_call_count: 0, sum_error_count: 0, p50_latency_ms: null, p95_latency_ms: null, p99_latency_ms: null },
    ]);
    expect(callTotals(calls)).toEqual({ calls: 3, errors: 1 });
    expect(callSeries(calls)[1]).toEqual({
      name: 'errors',
      points: [
        { x, y: 1 },
        { x: x2, y: 0 },
      ],
    });
    expect(latencySeries(calls).map((s) => s.name)).toEqual(['p50', 'p95', 'p99']);
    expect(latencySeries(calls)[2]!.points).toEqual([
      { x, y: 210 },
      { x: x2, y: null },
    ]);
  });

  it('totals tokens and cost per model, the most tokens first', () => {
    const usage = buckets<UsageBucket>([
      { timestamp: T, model: 'a', count: 1, sum_input_tokens: 10, sum_output_tokens: 5, sum_total_cost: 0.5 },
      { timestamp: T, model: 'b', count: 1, sum_input_tokens: 100, sum_output_tokens: 50, sum_total_cost: 1 },
      { timestamp: T2, model: 'a', count: 0, sum_input_tokens: 0, sum_output_tokens: 0, sum_total_cost: 0 },
      { timestamp: T2, model: 'b', count: 2, sum_input_tokens: 20, sum_output_tokens: 10, sum_total_cost: 0.25 },
    ]);
    expect(modelTotals(usage)).toEqual([
      { model: 'b', input_tokens: 120, output_tokens: 60, cost: 1.25 },
      { model: 'a', input_tokens: 10, output_tokens: 5, cost: 0.5 },
    ]);
    expect(usageSeries(usage, ['b', 'a'], 'tokens')[0]).toEqual({
      name: 'b',
      points: [
        { x, y: 150 },
        { x: x2, y: 30 },
      ],
    });
    expect(usageSeries(usage, ['b', 'a'], 'cost')[1]).toEqual({
      name: 'a',
      points: [
        { x, y: 0.5 },
        { x: x2, y: 0 },
      ],
    });
  });

  it('charts the numeric feedback fields’ means, a bucket without a value as a gap', () => {
    expect(
      numericPaths([
        { json_path: 'output.correct', value_type: 'boolean' },
        { json_path: 'output.score', value_type: 'numeric' },
        { json_path: 'note', value_type: 'categorical' },
      ]),
    ).toEqual(['output.score']);
    const win = windowOf('acme/bot', rangeOf('1h'), x);
    expect(feedbackStatsBody(win, ['output.score']).metrics).toEqual([
      { json_path: 'output.score', value_type: 'numeric', aggregations: ['avg', 'count'] },
    ]);
    const feedback = buckets<FeedbackStatsBucket>([
      { timestamp: T, count: 2, avg_output_score: 0.5, count_output_score: 2 },
      { timestamp: T2, count: 0, avg_output_score: 0, count_output_score: 0 },
    ]);
    expect(feedbackSeries(feedback, ['output.score'])).toEqual([
      {
        name: 'output.score',
        points: [
          { x, y: 0.5 },
          { x: x2, y: null },
        ],
      },
    ]);
  });
});
