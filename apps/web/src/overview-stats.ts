// What the project overview asks of calls/stats and feedback/stats, and how their buckets become
// chart series and totals. Pure functions, so the page stays a layout and these are unit-tested.
import type { CallBucket, CallStatsReq, FeedbackPayloadPath, FeedbackStatsBucket, FeedbackStatsReq, UsageBucket } from '@weft/types';
import type { Series } from './components/line-chart.tsx';

export interface Range {
  id: string;
  label: string;
  ms: number;
  /** Bucket size in seconds: a few dozen points per chart (the server caps a window at 31 days). */
  granularity: number;
}

const HOUR = 3_600_000;
export const RANGES: readonly Range[] = [
  { id: '1h', label: '1 h', ms: HOUR, granularity: 60 },
  { id: '24h', label: '24 h', ms: 24 * HOUR, granularity: 1_800 },
  { id: '7d', label: '7 d', ms: 7 * 24 * HOUR, granularity: 21_600 },
  { id: '30d', label: '30 d', ms: 30 * 24 * HOUR, granularity: 86_400 },
];
export const DEFAULT_RANGE = RANGES[1]!;

export const rangeOf = (id: string | null): Range => RANGES.find((r) => r.id === id) ?? DEFAULT_RANGE;

export interface StatsWindow {
  project_id: string;
  start: string;
  end: string;
  granularity: number;
}

/** The window that ends at `end` (ms since the epoch). */
export function windowOf(projectId: string, range: Range, end: number): StatsWindow {
  return {
    project_id: projectId,
    start: new Date(end - range.ms).toISOString(),
    end: new Date(end).toISOString(),
    granularity: range.granularity,
  };
}

/** Every metric the overview draws, in one request. */
export function callStatsBody(window: StatsWindow): CallStatsReq {
  return {
    ...window,
    call_metrics: [
      { metric: 'call_count', aggregations: ['sum'] },
      { metric: 'error_count', aggregations: ['sum'] },
      { metric: 'latency_ms', percentiles: [50, 95, 99] },
    ],
    usage_metrics: [
      { metric: 'input_tokens', aggregations: ['sum'] },
      { metric: 'output_tokens', aggregations: ['sum'] },
      { metric: 'total_cost', aggregations: ['sum'] },
    ],
  };
}

const at = (b: { timestamp: string }) => Date.parse(b.timestamp);
const num = (v: number | null | undefined) => (typeof v === 'number' ? v : 0);

export function callTotals(buckets: readonly CallBucket[]): { calls: number; errors: number } {
  return {
    calls: buckets.reduce((s, b) => s + num(b.sum_call_count), 0),
    errors: buckets.reduce((s, b) => s + num(b.sum_error_count), 0),
  };
}

export function callSeries(buckets: readonly CallBucket[]): Series[] {
  return [
    { name: 'calls', points: buckets.map((b) => ({ x: at(b), y: num(b.sum_call_count) })) },
    { name: 'errors', points: buckets.map((b) => ({ x: at(b), y: num(b.sum_error_count) })) },
  ];
}

/** p50/p95/p99; a bucket without a finished call is a gap, not a zero. */
export function latencySeries(buckets: readonly CallBucket[]): Series[] {
  return [50, 95, 99].map((p) => ({
    name: `p${p}`,
    points: buckets.map((b) => ({ x: at(b), y: b[`p${p}_latency_ms`] ?? null })),
  }));
}

export interface ModelTotals {
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost: number;
}

/** Sums per model over the window, the most tokens first. */
export function modelTotals(buckets: readonly UsageBucket[]): ModelTotals[] {
  const byModel = new Map<string, ModelTotals>();
  for (const b of buckets) {
    const t = byModel.get(b.model) ?? { model: b.model, input_tokens: 0, output_tokens: 0, cost: 0 };
    t.input_tokens += num(b.sum_input_tokens);
    t.output_tokens += num(b.sum_output_tokens);
    t.cost += num(b.sum_total_cost);
    byModel.set(b.model, t);
  }
  return [...byModel.values()].sort(
    (a, b) => b.input_tokens + b.output_tokens - (a.input_tokens + a.output_tokens) || a.model.localeCompare(b.model),
  );
}

/** One series per model (in `models`' order): tokens (input + output) or cost per bucket. */
export function usageSeries(buckets: readonly UsageBucket[], models: readonly string[], what: 'tokens' | 'cost'): Series[] {
  return models.map((model) => ({
    name: model,
    points: buckets
      .filter((b) => b.model === model)
      .map((b) => ({ x: at(b), y: what === 'cost' ? num(b.sum_total_cost) : num(b.sum_input_tokens) + num(b.sum_output_tokens) })),
  }));
}

/** At most this many feedback fields are charted (the first numeric paths, sorted as the server sorts them). */
export const MAX_FEEDBACK_PATHS = 6;

export function numericPaths(paths: readonly FeedbackPayloadPath[]): string[] {
  return paths
    .filter((p) => p.value_type === 'numeric')
    .slice(0, MAX_FEEDBACK_PATHS)
    .map((p) => p.json_path);
}

/** The mean and the number of values of each numeric field, per bucket. */
export function feedbackStatsBody(window: StatsWindow, paths: readonly string[]): FeedbackStatsReq {
  return { ...window, metrics: paths.map((json_path) => ({ json_path, value_type: 'numeric', aggregations: ['avg', 'count'] })) };
}

const slugOf = (path: string) => path.replace(/[. ]/g, '_');

/** The mean of each numeric field per bucket; a bucket without a value is a gap (its avg reads 0). */
export function feedbackSeries(buckets: readonly FeedbackStatsBucket[], paths: readonly string[]): Series[] {
  return paths.map((path) => {
    const slug = slugOf(path);
    return {
      name: path,
      points: buckets.map((b) => ({ x: at(b), y: num(b[`count_${slug}`]) > 0 ? (b[`avg_${slug}`] ?? null) : null })),
    };
  });
}
