// What the evaluation comparison shows, from eval_results/query's answer: one metric per scorer
// leaf (a mean for numbers, a pass rate for booleans) with each evaluation's value and its change
// from the baseline (the first evaluation), and a row's score per evaluation.
import type { EvalResultsEvaluationSummary, EvalResultsRowEvaluation } from '@weft/types';

export interface Metric {
  /** `scorer` or `scorer.path`: the `scores.` field eval_results/query sorts and filters on. */
  key: string;
  kind: 'mean' | 'pass rate';
  /** One per evaluation, in the request's order; null where that evaluation has none. */
  values: (number | null)[];
  /** values[i] − values[0]; null where either is missing (and for the baseline itself). */
  deltas: (number | null)[];
}

export function metricsOf(evaluations: readonly EvalResultsEvaluationSummary[]): Metric[] {
  const order: string[] = [];
  const byKey = new Map<string, { kind: Metric['kind']; values: (number | null)[] }>();
  evaluations.forEach((evaluation, i) => {
    for (const stat of evaluation.scorer_stats) {
      if (stat.value_type !== 'binary' && stat.value_type !== 'continuous') continue;
      const key = stat.path ? `${stat.scorer_key}.${stat.path}` : stat.scorer_key;
      let entry = byKey.get(key);
      if (!entry) {
        entry = { kind: stat.value_type === 'binary' ? 'pass rate' : 'mean', values: evaluations.map(() => null) };
        byKey.set(key, entry);
        order.push(key);
      }
      entry.values[i] = stat.value_type === 'binary' ? stat.pass_rate : stat.numeric_mean;
    }
  });
  return order.map((key) => {
    const { kind, values } = byKey.get(key)!;
    const base = values[0] ?? null;
    return { key, kind, values, deltas: values.map((v, i) => (i === 0 || v === null || base === null ? null : v - base)) };
  });
}

/** The value at `key` (`scorer` or `scorer.a.b`) of a trial's scores, or undefined. */
export function scoreAt(scores: Record<string, unknown>, key: string): unknown {
  let value: unknown = scores;
  for (const part of key.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A row's value of `key` in one evaluation: the mean over its trials (true as 1), as the server sorts. */
export function rowValue(evaluation: EvalResultsRowEvaluation | undefined, key: string): number | undefined {
  const values = (evaluation?.trials ?? [])
    .map((t) => scoreAt(t.scores, key))
    .map((v) => (typeof v === 'boolean' ? Number(v) : v))
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

export function formatMetric(value: number | null | undefined, kind: Metric['kind']): string {
  if (value === null || value === undefined) return '—';
  return kind === 'pass rate' ? `${(value * 100).toFixed(1)}%` : value.toFixed(3);
}

export function formatDelta(delta: number | null, kind: Metric['kind']): string {
  if (delta === null) return '';
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const size = Math.abs(delta);
  return kind === 'pass rate' ? `${sign}${(size * 100).toFixed(1)} pt` : `${sign}${size.toFixed(3)}`;
}

/** The object's name in a ref (`weave:///e/p/object/name:digest` → `name`), or the value as text. */
export function refName(ref: unknown): string {
  if (typeof ref !== 'string') return ref === undefined || ref === null ? '—' : JSON.stringify(ref);
  const match = /^weave:\/\/\/[^/]+\/[^/]+\/(?:object|op)\/([^:/]+)/.exec(ref);
  return match ? decodeURIComponent(match[1]!) : ref;
}
