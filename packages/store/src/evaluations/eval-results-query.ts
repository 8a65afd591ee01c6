// POST /v2/{entity}/{project}/eval_results/query: evaluations compared example by example (Weave's
// eval_results_query). The evaluations' trials are read once with only their example and scores
// (eval-calls-read.ts), grouped by row_digest, filtered, sorted and paged (eval-rows.ts) and
// summarized (eval-summary.ts) in turns of the event loop; only the page's trials are then read
// whole, with their child calls, and its dataset rows resolved.
import { TurnClock, type Catalogue } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { checkPaging } from '../db/paging.ts';
import type { EvalResultsQueryInput, ReadingContext } from '../store.ts';
import { readChildCalls, readEvalRoots, readTrialDetails, readTrialKeys, toTrialKey, type TrialKey } from './eval-calls-read.ts';
import { resolveRowRefs } from './eval-row-refs.ts';
import { changed, checkSelection, groupTrials, intersect, sortRows, type GroupedRow } from './eval-rows.ts';
import { summarize } from './eval-summary.ts';
import { toTrial } from './eval-trial.ts';

export type { EvalResultsQueryInput };

export async function evalResultsQuery(
  db: Db,
  catalogue: Catalogue,
  req: EvalResultsQueryInput,
  ctx: ReadingContext,
): Promise<T.EvalResultsQueryRes> {
  const requested = [...new Set(req.evaluation_call_ids)];
  checkSelection(req, requested);
  const paging = checkPaging(req.limit, req.offset);
  const includeRows = req.include_rows !== false;
  const clock = new TurnClock();

  const roots = await readEvalRoots(db, req.project_id, requested);
  const found = requested.filter((id) => roots.has(id));
  const keyRows = await readTrialKeys(db, req.project_id, found);
  const keys: TrialKey[] = [];
  for (const row of keyRows) {
    keys.push(toTrialKey(db, row));
    if (clock.due) await clock.pass();
  }
  // Each row's evaluations in the request's order, whatever order the trials came in.
  const all = await groupTrials(keys, clock);

  let rows: T.EvalResultsRow[] = [];
  let total = 0;
  const warnings: string[] = [];
  if (includeRows) {
    let selected = intersect(all, requested, req.require_intersection === true);
    if (req.only_changed) selected = changed(selected, requested, req.only_changed);
    total = selected.length;
    await sortRows(selected, requested, req.sort_by ?? [], clock);
    const end = paging.limit === undefined ? undefined : paging.offset + paging.limit;
    const page = selected.slice(paging.offset, end);
    rows = await pageRows(db, catalogue, req, page, requested, ctx, warnings);
  }
  const summaryIntersection = req.summary_require_intersection ?? req.require_intersection === true;
  const summary =
    req.include_summary === true ? await summarize(intersect(all, requested, summaryIntersection), found, roots, clock) : null;
  return { rows, total_rows: total, summary, warnings };
}

async function pageRows(
  db: Db,
  catalogue: Catalogue,
  req: EvalResultsQueryInput,
  page: readonly GroupedRow[],
  evaluationIds: readonly string[],
  ctx: ReadingContext,
  warnings: string[],
): Promise<T.EvalResultsRow[]> {
  const trialIds = page.flatMap((row) => [...row.trials.values()].flat().map((t) => t.id));
  const details = await readTrialDetails(db, req.project_id, trialIds);
  const children = req.include_predict_and_score_children === false ? undefined : await readChildCalls(db, req.project_id, trialIds);
  let resolved = new Map<string, unknown>();
  if (req.include_raw_data_rows === true && req.resolve_row_refs === true) {
    const refs = await resolveRowRefs(
      db,
      catalogue,
      page.map((row) => row.example),
      ctx,
    );
    resolved = refs.rows;
    warnings.push(...refs.warnings);
  }
  return page.map((row) => {
    const out: T.EvalResultsRow = {
      row_digest: row.digest,
      evaluations: evaluationIds
        .filter((id) => row.trials.has(id))
        .map((id) => ({
          evaluation_call_id: id,
          trials: row.trials.get(id)!.map((t) => toTrial(t.id, details.get(t.id), children ? (children.get(t.id) ?? []) : undefined)),
        })),
    };
    if (req.include_raw_data_rows === true) {
      const example = row.example;
      out.raw_data_row = typeof example === 'string' && resolved.has(example) ? resolved.get(example) : (example ?? null);
    }
    return out;
  });
}
