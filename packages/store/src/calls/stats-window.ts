// calls/stats: the request resolved before any SQL: the window and its buckets (Weave's
// stats_query_base.py: the default granularity ladder, at most 10,000 buckets, 31 days at most),
// and the metrics as the answer's columns (Weave's key names), with every request Weft cannot
// honour refused with 422 naming the field.
import { invalidField } from '@weft/core';
import type * as T from '@weft/types';
import { toIsoDatetime } from '../db/index.ts';
import { storedBound } from '../threads/turn-filter.ts';

/** Weave's MAX_BUCKETS: a finer granularity is raised to stay within it. */
export const MAX_BUCKETS = 10_000;
/** Weave's limit on the window (CallStatsReq refuses a longer one). */
export const MAX_WINDOW_DAYS = 31;
/** Weft's bound on usage_buckets (buckets × models): the answer's size, refused beyond. */
export const MAX_USAGE_ROWS = 100_000;

const DAY_S = 86_400;

export interface StatsWindow {
  /** Stored forms of the bounds, compared with started_at: start ≤ started_at < end. */
  startIso: string;
  endIso: string;
  /** The first bucket's start (a multiple of the granularity since the epoch), in ms. */
  originMs: number;
  granularityS: number;
  buckets: number;
}

export type Aggregation = T.StatsAggregation;

/** One metric as asked, normalised: Weave's default `[sum]` when nothing is asked. */
export interface MetricColumns {
  metric: string;
  aggregations: Aggregation[];
  /** Each percentile's level (round(p/100, 6)) and answer key. */
  percentiles: { level: number; key: string }[];
}

/** Weave's auto_select_granularity_seconds. */
export function defaultGranularity(rangeS: number): number {
  if (rangeS <= 2 * 3600) return 300;
  if (rangeS <= 12 * 3600) return 3600;
  if (rangeS <= 3 * DAY_S) return 6 * 3600;
  if (rangeS <= 14 * DAY_S) return 12 * 3600;
  return DAY_S;
}

/** Weave's ensure_max_buckets. */
export function withinMaxBuckets(granularityS: number, rangeS: number): number {
  if (rangeS / granularityS <= MAX_BUCKETS) return granularityS;
  return Math.max(granularityS, Math.trunc(rangeS / MAX_BUCKETS) + 1);
}

export function resolveWindow(req: T.CallStatsReq, now: Date = new Date()): StatsWindow {
  const startIso = storedBound('start', req.start, 'up');
  const endIso = req.end == null ? toIsoDatetime(now) : storedBound('end', req.end, 'up');
  const startMs = exactMs(req.start);
  const endMs = req.end == null ? now.getTime() : exactMs(req.end);
  if (startMs < 0) throw invalidField(['body', 'start'], 'start must not be before 1970-01-01T00:00:00Z');
  if (endMs < startMs) throw invalidField(['body', 'end'], 'end must not be before start');
  const rangeS = (endMs - startMs) / 1000;
  if (rangeS > MAX_WINDOW_DAYS * DAY_S) {
    throw invalidField(['body', 'end'], `The window from start to end cannot exceed ${MAX_WINDOW_DAYS} days`);
  }
  const granularityS = withinMaxBuckets(req.granularity ?? defaultGranularity(rangeS), rangeS);
  const gMs = granularityS * 1000;
  const originMs = Math.floor(startMs / gMs) * gMs;
  // Weave's all_buckets: ceil((end − first bucket) / granularity) buckets, each starting before end.
  const buckets = Math.ceil((endMs - originMs) / gMs);
  return { startIso, endIso, originMs, granularityS, buckets };
}

/** The instant in (fractional) milliseconds: a bound past the millisecond still places its buckets exactly. */
function exactMs(value: string): number {
  const ms = Date.parse(toIsoDatetime(value));
  const fraction = /[T ]\d{2}:\d{2}:\d{2}\.\d{3}(\d+)/.exec(value)?.[1];
  return fraction === undefined ? ms : ms + Number(`0.${fraction}`);
}

/** A valid IANA zone name (Intl knows them all), else 422. */
export function checkTimezone(timezone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw invalidField(['body', 'timezone'], `Not an IANA time zone: ${JSON.stringify(timezone)}`);
  }
  return timezone;
}

const COSTS = new Set(['input_cost', 'output_cost', 'total_cost']);

export function isCost(metric: string): boolean {
  return COSTS.has(metric);
}

/**
 * The metrics' columns, in the order asked. Refused (422): a metric asked twice, an aggregation or
 * a percentile key asked twice (Weave's query would name two columns alike), and for a cost
 * anything but `sum` (Weave computes only sums of costs, after its query).
 */
export function metricColumns(
  field: 'usage_metrics' | 'call_metrics',
  specs: readonly (T.UsageMetricSpec | T.CallMetricSpec)[] | null | undefined,
): MetricColumns[] {
  const seen = new Set<string>();
  return (specs ?? []).map((spec, i) => {
    const at = (...rest: (string | number)[]) => ['body', field, String(i), ...rest.map(String)];
    if (seen.has(spec.metric)) throw invalidField(at('metric'), `${spec.metric} is asked for more than once`);
    seen.add(spec.metric);
    const percentilesAsked = spec.percentiles ?? [];
    const aggregations = [...(spec.aggregations ?? [])];
    if (aggregations.length === 0 && percentilesAsked.length === 0) aggregations.push('sum');
    if (new Set(aggregations).size !== aggregations.length)
      throw invalidField(at('aggregations'), 'An aggregation is asked for more than once');
    const percentiles = percentilesAsked.map((p) => ({
      level: Math.round((p / 100) * 1e6) / 1e6,
      key: `p${percentileName(p)}_${spec.metric}`,
    }));
    if (new Set(percentiles.map((p) => p.key)).size !== percentiles.length) {
      throw invalidField(at('percentiles'), 'A percentile is asked for more than once');
    }
    if (isCost(spec.metric)) {
      if (percentiles.length > 0) throw invalidField(at('percentiles'), `${spec.metric} has no percentiles: costs are sums only`);
      const other = aggregations.find((a) => a !== 'sum');
      if (other) throw invalidField(at('aggregations'), `${spec.metric} has no ${other}: costs are sums only`);
    }
    return { metric: spec.metric, aggregations, percentiles };
  });
}

/**
 * Weave's name of a percentile: an integral value without a fraction (`99`), else Python's str of
 * the float (`99.9`; below 1e-4 Python writes an exponent of two digits at least: `5e-05`).
 */
export function percentileName(p: number): string {
  if (Number.isInteger(p)) return String(p);
  if (Math.abs(p) >= 1e-4) return String(p);
  const [mantissa = '', exponent = ''] = p.toExponential().split('e');
  const sign = exponent.startsWith('-') ? '-' : '+';
  return `${mantissa}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
}

/** The answer's key of an aggregation. */
export const aggregationKey = (aggregation: Aggregation, metric: string) => `${aggregation}_${metric}`;
