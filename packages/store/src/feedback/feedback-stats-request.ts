// What feedback/stats and feedback/payload_schema ask for, checked and resolved as Weave's
// feedback_stats_query_builder.py resolves it (window, granularity, metric defaults and slugs),
// with Weft's bounds. What Weft cannot honour is refused with 422 naming the field, never dropped.
import { invalidField } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, toIsoDatetime } from '../db/index.ts';
// calls/stats and feedback/stats bucket a window alike (Weave's stats_query_base.py serves both).
import { checkTimezone, defaultGranularity, MAX_BUCKETS, withinMaxBuckets } from '../calls/stats-window.ts';

/** Metrics per request (the spec's maxItems too): each adds up to seven aggregates to one scan. */
export const MAX_METRICS = 50;
/** Weave's default and largest sample_limit. */
export const DEFAULT_SAMPLE_LIMIT = 2000;
export const MAX_SAMPLE_LIMIT = 5000;
/** Weave's json_path characters (JSON_PATH_PATTERN). */
export const JSON_PATH_PATTERN = /^[a-zA-Z0-9_. ]+$/;

export type Aggregation = 'sum' | 'avg' | 'min' | 'max' | 'count' | 'count_true' | 'count_false';
export type ValueType = 'numeric' | 'boolean' | 'categorical';

export interface ResolvedMetric {
  keys: string[];
  slug: string;
  valueType: ValueType;
  aggregations: Aggregation[];
}

export interface FeedbackWindow {
  start: string;
  end: string;
  feedbackType: string | null;
  triggerRef: string | null;
}

const DEFAULT_AGGREGATIONS: Record<ValueType, Aggregation[]> = {
  numeric: ['avg', 'min', 'max'],
  boolean: ['count_true', 'count_false'],
  categorical: ['count'],
};

function datetime(value: string, field: string): string {
  try {
    return toIsoDatetime(value);
  } catch {
    throw invalidField(['body', field], `Input should be a valid datetime: ${JSON.stringify(value)}`, 'datetime_parsing');
  }
}

/** start, end (default now; before start is a 422) and the filters both operations share. */
export function resolveWindow(req: T.FeedbackStatsReq | T.FeedbackPayloadSchemaReq): FeedbackWindow {
  const start = datetime(req.start, 'start');
  const end = req.end == null ? nowIso() : datetime(req.end, 'end');
  if (end < start) throw invalidField(['body', 'end'], 'end must not be before start');
  return { start, end, feedbackType: req.feedback_type ?? null, triggerRef: req.trigger_ref ?? null };
}

/**
 * The bucket size: the one asked for (422 when the window would need more than MAX_BUCKETS of
 * it), or Weave's automatic choice, made coarser as Weave's ensure_max_buckets makes it.
 */
export function resolveGranularity(req: T.FeedbackStatsReq, window: FeedbackWindow): number {
  const windowSeconds = (Date.parse(window.end) - Date.parse(window.start)) / 1000;
  if (req.granularity != null) {
    if (windowSeconds / req.granularity > MAX_BUCKETS)
      throw invalidField(
        ['body', 'granularity'],
        `A granularity of ${req.granularity} s needs more than ${MAX_BUCKETS} buckets for this window; choose at least ${Math.floor(windowSeconds / MAX_BUCKETS) + 1}`,
      );
    return req.granularity;
  }
  return withinMaxBuckets(defaultGranularity(windowSeconds), windowSeconds);
}

/**
 * Any IANA zone, echoed, as calls/stats takes it: buckets of a number of seconds start at
 * multiples of it since the epoch in every zone (as ClickHouse's second intervals do), so the zone
 * changes no bucket. A name that is not a zone is refused.
 */
export function resolveTimezone(req: T.FeedbackStatsReq): string {
  return checkTimezone(req.timezone ?? 'UTC');
}

/** Each metric with its keys, slug and aggregations (defaults by value type, duplicates dropped). */
export function resolveMetrics(req: T.FeedbackStatsReq): ResolvedMetric[] {
  const metrics = req.metrics ?? [];
  if (metrics.length > MAX_METRICS) throw invalidField(['body', 'metrics'], `At most ${MAX_METRICS} metrics`);
  const slugs = new Set<string>();
  return metrics.map((m, i) => {
    const at = (...rest: string[]) => ['body', 'metrics', String(i), ...rest];
    if (!JSON_PATH_PATTERN.test(m.json_path) || m.json_path.trim() === '')
      throw invalidField(at('json_path'), 'json_path may only contain letters, digits, "_", "." and spaces, and not only spaces');
    // "a..b" names the key "" between, as ClickHouse's JSONExtract reads it: no match, no error.
    const keys = m.json_path.split('.');
    const slug = m.json_path.replace(/[. ]/g, '_');
    if (slugs.has(slug)) throw invalidField(at('json_path'), `Another metric has the same slug ${JSON.stringify(slug)}`);
    slugs.add(slug);
    if (m.percentiles?.length) throw invalidField(at('percentiles'), 'Percentiles are not supported; leave percentiles empty');
    const valueType: ValueType = m.value_type ?? 'numeric';
    const asked = m.aggregations?.length ? [...new Set(m.aggregations)] : DEFAULT_AGGREGATIONS[valueType];
    if (valueType === 'categorical' && asked.some((a) => a !== 'count'))
      throw invalidField(at('aggregations'), 'A categorical value supports only the "count" aggregation');
    return { keys, slug, valueType, aggregations: asked };
  });
}

/** sample_limit: default 2000, at most 5000 (the spec refuses more). */
export function resolveSampleLimit(req: T.FeedbackPayloadSchemaReq): number {
  return Math.min(req.sample_limit ?? DEFAULT_SAMPLE_LIMIT, MAX_SAMPLE_LIMIT);
}
