// The summary of eval_results/query, as Weave computes it (eval_results_helpers'
// compute_summary_from_rows): per evaluation its trials, and per score leaf (a scorer's value, or
// a path into its dict output) a stats entry typed by the first value seen there. Booleans count
// towards the pass rate, numbers towards the mean; strings are counted as `text` leaves.
import type { TurnClock } from '@weft/core';
import type * as T from '@weft/types';
import type { EvalRoot } from './eval-calls-read.ts';
import type { GroupedRow } from './eval-rows.ts';

type Stats = T.EvalResultsScorerStats;

function newStats(scorer_key: string, path: string | null, value_type: Stats['value_type']): Stats {
  return {
    scorer_key,
    path,
    value_type,
    trial_count: 0,
    numeric_count: 0,
    numeric_mean: null,
    pass_true_count: 0,
    pass_known_count: 0,
    pass_rate: null,
    pass_signal_coverage: null,
  };
}

function addLeaf(stats: Map<string, Stats>, scorer: string, path: string[], value: unknown): void {
  const type = typeof value === 'boolean' ? 'binary' : typeof value === 'number' ? 'continuous' : typeof value === 'string' ? 'text' : null;
  if (type === null) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) addLeaf(stats, scorer, [...path, k], v);
    return;
  }
  if (type === 'continuous' && !Number.isFinite(value)) return;
  const pathText = path.length > 0 ? path.join('.') : null;
  const key = JSON.stringify([scorer, pathText]);
  let s = stats.get(key);
  if (!s) {
    s = newStats(scorer, pathText, type);
    stats.set(key, s);
  }
  s.trial_count++;
  if (type === 'binary') {
    s.pass_known_count++;
    if (value === true) s.pass_true_count++;
  } else if (type === 'continuous') {
    const sum = (s.numeric_mean ?? 0) * s.numeric_count + (value as number);
    s.numeric_count++;
    s.numeric_mean = sum / s.numeric_count;
  }
}

const byKeyAndPath = (a: Stats, b: Stats): number =>
  a.scorer_key < b.scorer_key
    ? -1
    : a.scorer_key > b.scorer_key
      ? 1
      : (a.path ?? '') < (b.path ?? '')
        ? -1
        : (a.path ?? '') > (b.path ?? '')
          ? 1
          : 0;

export async function summarize(
  rows: readonly GroupedRow[],
  evaluationIds: readonly string[],
  roots: ReadonlyMap<string, EvalRoot>,
  clock: TurnClock,
): Promise<T.EvalResultsSummaryRes> {
  const trialCounts = new Map(evaluationIds.map((id) => [id, 0]));
  const stats = new Map(evaluationIds.map((id) => [id, new Map<string, Stats>()]));
  for (const row of rows) {
    for (const [id, trials] of row.trials) {
      trialCounts.set(id, (trialCounts.get(id) ?? 0) + trials.length);
      const own = stats.get(id)!;
      for (const trial of trials) {
        const scores = trial.scores;
        if (typeof scores !== 'object' || scores === null || Array.isArray(scores)) continue;
        for (const [scorer, value] of Object.entries(scores)) addLeaf(own, scorer, [], value);
      }
    }
    if (clock.due) await clock.pass();
  }
  return {
    row_count: rows.length,
    evaluations: evaluationIds.map((id) => {
      const root = roots.get(id)!;
      // By scorer, then path: PostgreSQL's jsonb keeps no key order, so the order seen is no order.
      const scorer_stats = [...stats.get(id)!.values()].sort(byKeyAndPath).map((s) => ({
        ...s,
        pass_rate: s.pass_known_count > 0 ? s.pass_true_count / s.pass_known_count : null,
        pass_signal_coverage: s.trial_count > 0 ? s.pass_known_count / s.trial_count : null,
      }));
      return {
        evaluation_call_id: id,
        trial_count: trialCounts.get(id) ?? 0,
        scorer_stats,
        evaluation_ref: root.evaluation_ref ?? null,
        model_ref: root.model_ref ?? null,
        display_name: root.display_name,
        trace_id: root.trace_id,
        started_at: root.started_at,
      };
    }),
  };
}
