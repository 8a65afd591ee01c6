import type { EvalResultsEvaluationSummary, EvalResultsScorerStats } from '@weft/types';
import { describe, expect, it } from 'vitest';
import { formatDelta, formatMetric, metricsOf, refName, rowValue, scoreAt } from './eval-compare.ts';

const stat = (
  scorer_key: string,
  path: string | null,
  value_type: 'binary' | 'continuous' | 'text',
  mean: number | null,
  pass: number | null,
): EvalResultsScorerStats => ({
  scorer_key,
  path,
  value_type,
  trial_count: 4,
  numeric_count: 4,
  numeric_mean: mean,
  pass_true_count: 0,
  pass_known_count: 0,
  pass_rate: pass,
  pass_signal_coverage: null,
});
const summary = (id: string, stats: EvalResultsScorerStats[]): EvalResultsEvaluationSummary => ({
  evaluation_call_id: id,
  trial_count: 4,
  scorer_stats: stats,
  evaluation_ref: null,
  model_ref: null,
  display_name: id,
  trace_id: id,
  started_at: null,
});

describe('evaluation comparison', () => {
  it('lines up each scorer leaf across evaluations, with changes from the baseline', () => {
    const metrics = metricsOf([
      summary('a', [
        stat('exact', null, 'binary', 0.5, 0.5),
        stat('close', 'diff', 'continuous', 1.5, null),
        stat('why', null, 'text', null, null),
      ]),
      summary('b', [stat('exact', null, 'binary', 0.75, 0.75), stat('only_b', null, 'continuous', 2, null)]),
    ]);
    expect(metrics).toEqual([
      { key: 'exact', kind: 'pass rate', values: [0.5, 0.75], deltas: [null, 0.25] },
      { key: 'close.diff', kind: 'mean', values: [1.5, null], deltas: [null, null] },
      { key: 'only_b', kind: 'mean', values: [null, 2], deltas: [null, null] },
    ]);
  });

  it('reads a score at a path, and a row’s mean over its trials with true as 1', () => {
    expect(scoreAt({ close: { diff: 2 } }, 'close.diff')).toBe(2);
    expect(scoreAt({ close: 2 }, 'close.diff')).toBeUndefined();
    const trial = (scores: Record<string, unknown>) => ({
      predict_and_score_call_id: 'p',
      predict_call_id: null,
      model_output: null,
      scores,
      model_latency_seconds: null,
      total_tokens: null,
      scorer_call_ids: {},
    });
    expect(rowValue({ evaluation_call_id: 'a', trials: [trial({ exact: true }), trial({ exact: false })] }, 'exact')).toBe(0.5);
    expect(rowValue({ evaluation_call_id: 'a', trials: [trial({ exact: 'n/a' })] }, 'exact')).toBeUndefined();
    expect(rowValue(undefined, 'exact')).toBeUndefined();
  });

  it('formats means, pass rates and their changes', () => {
    expect(formatMetric(0.756, 'pass rate')).toBe('75.6%');
    expect(formatMetric(1.23456, 'mean')).toBe('1.235');
    expect(formatMetric(null, 'mean')).toBe('—');
    expect(formatDelta(0.25, 'pass rate')).toBe('+25.0 pt');
    expect(formatDelta(-0.5, 'mean')).toBe('−0.500');
    expect(formatDelta(0, 'mean')).toBe('±0.000');
    expect(formatDelta(null, 'mean')).toBe('');
  });

  it('names the object a ref points at', () => {
    expect(refName('weave:///acme/bot/object/sums-eval:abc')).toBe('sums-eval');
    expect(refName('weave:///acme/bot/op/adder:abc')).toBe('adder');
    expect(refName({ name: 'inline' })).toBe('{"name":"inline"}');
  });
});
