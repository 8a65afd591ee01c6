// Grouping of eval_results/query: trials by dataset example (row_digest) and evaluation, each
// row's value of a score in an evaluation, the sort, require_intersection and Weft's
// only_changed. Sort keys are numbers computed once per row, so sorting ten thousand rows is one
// Array.sort with a cheap comparison.
import { digestBytes, digestOfValue, invalidField, TurnClock } from '@weft/core';
import type * as T from '@weft/types';
import { byStart, type TrialKey } from './eval-calls-read.ts';

export interface GroupedRow {
  digest: string;
  /** The example as the first trial recorded it (a row ref, or the inline dict). */
  example: unknown;
  /** The row's trials per evaluation id, each by start. */
  trials: Map<string, TrialKey[]>;
}

const ROW_REF_EDGE = '/attr/rows/id/';

/**
 * The digest in a dataset row ref (`…/attr/rows/id/<digest>`); else Weave's str_digest of
 * `json.dumps(example, sort_keys=True)` (of the string itself for a string that is no row ref).
 */
export function rowDigestOf(example: unknown): string {
  if (typeof example === 'string') {
    const at = example.lastIndexOf(ROW_REF_EDGE);
    if (at >= 0) {
      const rest = example.slice(at + ROW_REF_EDGE.length);
      const end = rest.indexOf('/');
      const digest = end < 0 ? rest : rest.slice(0, end);
      if (digest !== '') return digest;
    }
    return digestBytes(example);
  }
  return digestOfValue(example ?? null);
}

export async function groupTrials(trials: readonly TrialKey[], clock: TurnClock): Promise<GroupedRow[]> {
  const rows = new Map<string, GroupedRow>();
  for (const trial of trials) {
    const digest = rowDigestOf(trial.example);
    let row = rows.get(digest);
    if (!row) {
      row = { digest, example: trial.example, trials: new Map() };
      rows.set(digest, row);
    }
    const list = row.trials.get(trial.evaluationId);
    if (list) list.push(trial);
    else row.trials.set(trial.evaluationId, [trial]);
    if (clock.due) await clock.pass();
  }
  for (const row of rows.values()) for (const list of row.trials.values()) if (list.length > 1) list.sort(byStart);
  return [...rows.values()];
}

/** `scores.<scorer>[.<path>]` as the path into a trial's scores. */
export function scorePath(field: string): string[] {
  return field.split('.').slice(1);
}

/** A score leaf as a number: true 1, false 0, a finite number itself; anything else none. */
function leafNumber(scores: unknown, path: readonly string[]): number | null {
  let v = scores;
  for (const part of path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    v = (v as Record<string, unknown>)[part];
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The row's value in one evaluation: the mean over its trials that have one; null when none has. */
export function valueIn(row: GroupedRow, evaluationId: string, path: readonly string[]): number | null {
  let sum = 0;
  let n = 0;
  for (const trial of row.trials.get(evaluationId) ?? []) {
    const x = leafNumber(trial.scores, path);
    if (x !== null) {
      sum += x;
      n++;
    }
  }
  return n === 0 ? null : sum / n;
}

/** The largest minus the smallest of the row's values across the evaluations; null with fewer than two. */
function spread(row: GroupedRow, evaluationIds: readonly string[], path: readonly string[]): number | null {
  let min = Infinity;
  let max = -Infinity;
  let n = 0;
  for (const id of evaluationIds) {
    const v = valueIn(row, id, path);
    if (v === null) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
    n++;
  }
  return n < 2 ? null : max - min;
}

export interface RowSelection {
  requireIntersection: boolean;
  onlyChanged: T.EvalResultsOnlyChanged | null | undefined;
  sortBy: readonly T.EvalResultsSortBy[];
}

/** Refuses what the schema cannot say: sort evaluations that are not compared, only_changed with one evaluation. */
export function checkSelection(req: T.EvalResultsQueryReq, evaluationIds: readonly string[]): void {
  (req.sort_by ?? []).forEach((s, i) => {
    const id = s.evaluation_call_id;
    if (id == null) return;
    if (s.mode === 'difference')
      throw invalidField(
        ['body', 'sort_by', String(i), 'evaluation_call_id'],
        'mode difference spans every evaluation: leave evaluation_call_id out',
      );
    if (!evaluationIds.includes(id))
      throw invalidField(['body', 'sort_by', String(i), 'evaluation_call_id'], `${id} is not one of evaluation_call_ids`);
  });
  if (req.only_changed && evaluationIds.length < 2)
    throw invalidField(['body', 'only_changed'], 'only_changed compares evaluations with the first: give two evaluation_call_ids or more');
  if (req.resolve_row_refs === true && req.include_raw_data_rows !== true)
    throw invalidField(['body', 'resolve_row_refs'], 'resolve_row_refs resolves raw_data_row: it needs include_raw_data_rows');
}

/** The rows kept by require_intersection (with more than one evaluation, as Weave). */
export function intersect(rows: readonly GroupedRow[], evaluationIds: readonly string[], require: boolean): GroupedRow[] {
  if (!require || evaluationIds.length < 2) return [...rows];
  return rows.filter((row) => evaluationIds.every((id) => row.trials.has(id)));
}

/** only_changed: some other evaluation's value is below (worse) or above (better) the baseline's. */
export function changed(rows: readonly GroupedRow[], evaluationIds: readonly string[], only: T.EvalResultsOnlyChanged): GroupedRow[] {
  const path = scorePath(only.field);
  const [baseline, ...others] = evaluationIds;
  return rows.filter((row) => {
    const base = valueIn(row, baseline!, path);
    if (base === null) return false;
    return others.some((id) => {
      const v = valueIn(row, id, path);
      return v !== null && (only.direction === 'worse' ? v < base : v > base);
    });
  });
}

/** Sorts in place: each sort_by in turn (no value last, either direction), then row_digest ascending. */
export async function sortRows(
  rows: GroupedRow[],
  evaluationIds: readonly string[],
  sortBy: readonly T.EvalResultsSortBy[],
  clock: TurnClock,
): Promise<GroupedRow[]> {
  const paths = sortBy.map((s) => scorePath(s.field));
  const keyed: { row: GroupedRow; keys: (number | null)[] }[] = [];
  for (const row of rows) {
    const keys = sortBy.map((s, i) =>
      s.mode === 'difference' ? spread(row, evaluationIds, paths[i]!) : valueIn(row, s.evaluation_call_id ?? evaluationIds[0]!, paths[i]!),
    );
    keyed.push({ row, keys });
    if (clock.due) await clock.pass();
  }
  const signs = sortBy.map((s) => (s.direction === 'desc' ? -1 : 1));
  keyed.sort((a, b) => {
    for (let i = 0; i < signs.length; i++) {
      const x = a.keys[i]!;
      const y = b.keys[i]!;
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return x < y ? -signs[i]! : signs[i]!;
    }
    return a.row.digest < b.row.digest ? -1 : a.row.digest > b.row.digest ? 1 : 0;
  });
  await clock.maybePass();
  for (let i = 0; i < keyed.length; i++) rows[i] = keyed[i]!.row;
  return rows;
}
