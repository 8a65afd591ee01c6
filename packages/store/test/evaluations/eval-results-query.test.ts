// evalResultsQuery against answers worked out by hand: two evaluations of one dataset (the
// Python SDK's trial shape in one, the TypeScript SDK's in the other), a row missing from one, a
// row with two trials, a failed prediction of an inline example, a deleted trial, and another
// project's calls under the same ids, which never count.
import { digestOfValue } from '@weft/core';
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { childCallsQuery, trialKeysQuery } from '../../src/evaluations/eval-calls-read.ts';
import { evalResultsQuery, type EvalResultsQueryInput } from '../../src/evaluations/eval-results-query.ts';
import type { Store } from '../../src/store.ts';
import { catalogue, ctx } from '../calls/call-fixtures.ts';

/** objCreate reads its body losslessly; a plain value has no lexemes to keep. */
const writing = { ...ctx, source: undefined };
import { describeEachDialect } from '../dialects.ts';
import { queryPlan } from '../query-plan.ts';

const P = 'evals/main';
const OTHER = 'evals/other';
const op = (name: string, project = P) => `weave:///${project}/op/${name}:d1gest`;
const MODEL_A = op('adder');
const MODEL_B = `weave:///${P}/object/Sloppy:m0del`;
const at = (s: number) => new Date(Date.UTC(2025, 5, 3, 10, 0, s)).toISOString();

describeEachDialect('eval results query', (getDb) => {
  let store: Store;
  let digests: string[] = [];
  let rowRefs: string[] = [];
  const inline = { q: 'extra' };
  const dx = digestOfValue(inline);
  let clock = 0;

  async function call(
    project: string,
    fields: { id: string; parent_id?: string; op_name: string; inputs?: unknown; display_name?: string; deleted?: boolean },
    end: { output?: unknown; summary?: unknown; exception?: string; ms?: number } = {},
  ) {
    const start = at(clock++);
    await store.callStart(
      {
        start: {
          project_id: project,
          id: fields.id,
          trace_id: 'trace-' + (fields.parent_id ?? fields.id),
          parent_id: fields.parent_id,
          op_name: fields.op_name,
          display_name: fields.display_name,
          started_at: start,
          attributes: {},
          inputs: (fields.inputs ?? {}) as Record<string, never>,
        },
      },
      ctx,
    );
    const ended = new Date(Date.parse(start) + (end.ms ?? 100)).toISOString();
    await store.callEnd(
      {
        end: {
          project_id: project,
          id: fields.id,
          ended_at: ended,
          output: end.output,
          exception: end.exception,
          summary: (end.summary ?? {}) as Record<string, never>,
        },
      },
      ctx,
    );
    if (fields.deleted)
      await getDb()
        .kysely.updateTable('calls')
        .set({ deleted_at: at(100) })
        .where('id', '=', fields.id)
        .execute();
  }

  const pyTrial = (scores: Record<string, unknown>, output: unknown) => ({ output, scores, model_latency: 0.25 });
  const tsTrial = (scores: Record<string, unknown>, output: unknown, success = true) => ({
    model_success: success,
    model_output: output,
    scores,
    model_latency: 0.5,
  });
  const pas = (
    project: string,
    id: string,
    parent: string,
    example: unknown,
    model: string,
    output: unknown,
    opName = 'Evaluation.predict_and_score',
  ) => call(project, { id, parent_id: parent, op_name: op(opName, project), inputs: { self: 'eval-ref', model, example } }, { output });

  beforeAll(async () => {
    store = createStore({ db: getDb(), catalogue });
    const table = await store.tableCreate({ table: { project_id: P, rows: [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }] } }, writing);
    digests = table.row_digests;
    const ds = await store.objCreate(
      { obj: { project_id: P, object_id: 'sums', val: { _type: 'Dataset', rows: `weave:///${P}/table/${table.digest}` } } },
      writing,
    );
    rowRefs = digests.map((d) => `weave:///${P}/object/sums:${ds.digest}/attr/rows/id/${d}`);
    const evaluate = op('Evaluation.evaluate');
    await call(P, { id: 'ev-a', op_name: evaluate, inputs: { self: 'eval-ref', model: MODEL_A }, display_name: 'run A' });
    await call(P, { id: 'ev-b', op_name: evaluate, inputs: { self: 'eval-ref', model: MODEL_B }, display_name: 'run B' });
    // Evaluation A (Python's shape): right on rows 0–2, wrong on row 3 (with a nested judge score).
    await pas(P, 'a0', 'ev-a', rowRefs[0], MODEL_A, pyTrial({ correct: true, dist: 0 }, 0));
    await call(P, { id: 'a0-predict', parent_id: 'a0', op_name: MODEL_A }, { output: 0, ms: 250 });
    await call(P, { id: 'a0-correct', parent_id: 'a0', op_name: op('correct') }, { output: true });
    await call(P, { id: 'a0-dist', parent_id: 'a0', op_name: op('dist') }, { output: 0 });
    await pas(P, 'a0-deleted', 'ev-a', rowRefs[0], MODEL_A, pyTrial({ correct: false, dist: 9 }, 9));
    await getDb()
      .kysely.updateTable('calls')
      .set({ deleted_at: at(100) })
      .where('id', '=', 'a0-deleted')
      .execute();
    await pas(P, 'a1', 'ev-a', rowRefs[1], MODEL_A, pyTrial({ correct: true, dist: 0 }, 2));
    await pas(P, 'a2', 'ev-a', rowRefs[2], MODEL_A, pyTrial({ correct: true, dist: 0 }, 4));
    await pas(P, 'a3', 'ev-a', rowRefs[3], MODEL_A, pyTrial({ correct: false, dist: 3, judge: { passed: false, score: 0.25 } }, 9));
    await call(P, { id: 'ev-a-summarize', parent_id: 'ev-a', op_name: op('Evaluation.summarize') }, { output: {} });
    // Evaluation B (the TypeScript SDK's shape): wrong on row 1, two trials of row 2, no row 3, a failed inline example.
    const tsOp = 'Evaluation.predictAndScore';
    await pas(P, 'b0', 'ev-b', rowRefs[0], MODEL_B, tsTrial({ correct: true, dist: 0 }, 0), tsOp);
    await pas(P, 'b1', 'ev-b', rowRefs[1], MODEL_B, tsTrial({ correct: false, dist: 2 }, 4), tsOp);
    await call(
      P,
      { id: 'b1-predict', parent_id: 'b1', op_name: op('Sloppy.predict'), inputs: { self: MODEL_B } },
      { output: 4, ms: 400, summary: { usage: { 'gpt-x': { total_tokens: 7 }, 'gpt-y': { total_tokens: 3 } } } },
    );
    await call(P, { id: 'b1-correct', parent_id: 'b1', op_name: op('correct') }, { output: false });
    await pas(P, 'b2a', 'ev-b', rowRefs[2], MODEL_B, tsTrial({ correct: true, dist: 0 }, 4), tsOp);
    await pas(P, 'b2b', 'ev-b', rowRefs[2], MODEL_B, tsTrial({ correct: false, dist: 4 }, 8), tsOp);
    await pas(P, 'b4', 'ev-b', inline, MODEL_B, tsTrial({}, null, false), tsOp);
    // Another project: an evaluation of its own, and a trial under the id ev-a.
    await call(OTHER, { id: 'ev-x', op_name: op('Evaluation.evaluate', OTHER), inputs: {} });
    await pas(OTHER, 'x0', 'ev-x', rowRefs[0], MODEL_A, pyTrial({ correct: false, dist: 5 }, 1));
    await pas(OTHER, 'x1', 'ev-a', rowRefs[3], MODEL_A, pyTrial({ correct: true, dist: 0 }, 1));
  });

  const query = (req: Omit<EvalResultsQueryInput, 'project_id' | 'evaluation_call_ids'> & { evaluation_call_ids?: string[] }) =>
    evalResultsQuery(getDb(), catalogue, { project_id: P, evaluation_call_ids: ['ev-a', 'ev-b'], ...req }, ctx);
  const d = (i: number) => digests[i]!;
  const byDigest = (...ds: string[]) => [...ds].sort();
  const order = (res: T.EvalResultsQueryRes) => res.rows.map((r) => r.row_digest);

  it('groups trials by dataset row across evaluations, in row_digest order', async () => {
    const res = await query({});
    expect(res.total_rows).toBe(5);
    expect(order(res)).toEqual(byDigest(d(0), d(1), d(2), d(3), dx));
    const rowOf = (digest: string) => res.rows.find((r) => r.row_digest === digest)!;
    // Row 3: evaluation A only (B has none; the other project's trial under ev-a never counts).
    expect(rowOf(d(3)).evaluations.map((e) => [e.evaluation_call_id, e.trials.map((t) => t.predict_and_score_call_id)])).toEqual([
      ['ev-a', ['a3']],
    ]);
    // Row 0: the deleted trial is gone.
    expect(rowOf(d(0)).evaluations.map((e) => e.trials.map((t) => t.predict_and_score_call_id))).toEqual([['a0'], ['b0']]);
    // Row 2: two trials in B, by start.
    expect(rowOf(d(2)).evaluations[1]!.trials.map((t) => [t.predict_and_score_call_id, t.scores, t.model_output])).toEqual([
      ['b2a', { correct: true, dist: 0 }, 4],
      ['b2b', { correct: false, dist: 4 }, 8],
    ]);
    expect(rowOf(d(0)).raw_data_row).toBeUndefined();
  });

  it('reads each trial: the predict call, its latency and tokens, the scorer calls; a failed prediction', async () => {
    const res = await query({});
    const trial = (id: string) =>
      res.rows.flatMap((r) => r.evaluations.flatMap((e) => e.trials)).find((t) => t.predict_and_score_call_id === id)!;
    expect(trial('a0')).toEqual({
      predict_and_score_call_id: 'a0',
      predict_call_id: 'a0-predict', // the op the evaluation's model names
      model_output: 0,
      scores: { correct: true, dist: 0 },
      model_latency_seconds: 0.25,
      total_tokens: null,
      scorer_call_ids: { correct: 'a0-correct', dist: 'a0-dist' },
    });
    expect(trial('b1')).toEqual({
      predict_and_score_call_id: 'b1',
      predict_call_id: 'b1-predict', // the call whose self is the model
      model_output: 4,
      scores: { correct: false, dist: 2 },
      model_latency_seconds: 0.4,
      total_tokens: 10,
      scorer_call_ids: { correct: 'b1-correct' },
    });
    // No children: the recorded latency.
    expect(trial('a1')).toMatchObject({ predict_call_id: null, model_latency_seconds: 0.25, scorer_call_ids: {} });
    expect(trial('b4')).toEqual({
      predict_and_score_call_id: 'b4',
      predict_call_id: null,
      model_output: null,
      scores: {},
      model_latency_seconds: 0.5,
      total_tokens: null,
      scorer_call_ids: {},
    });
    const without = await query({ include_predict_and_score_children: false });
    const b1 = without.rows.flatMap((r) => r.evaluations.flatMap((e) => e.trials)).find((t) => t.predict_and_score_call_id === 'b1')!;
    expect(b1).toMatchObject({ predict_call_id: null, scorer_call_ids: {}, model_latency_seconds: 0.5, total_tokens: null });
  });

  it('sorts by the difference across evaluations, and by one evaluation’s value; no value last', async () => {
    // dist: A 0, 0, 0, 3; B 0, 2, (0 + 4) / 2 = 2, none. Spread: row 1 2, row 2 2, row 0 0, rows 3 and x none.
    const diff = await query({ sort_by: [{ field: 'scores.dist', direction: 'desc', mode: 'difference' }] });
    expect(order(diff)).toEqual([...byDigest(d(1), d(2)), d(0), ...byDigest(d(3), dx)]);
    // correct in B: row 0 1, row 1 0, row 2 0.5.
    const inB = await query({ sort_by: [{ field: 'scores.correct', direction: 'asc', evaluation_call_id: 'ev-b' }] });
    expect(order(inB)).toEqual([d(1), d(2), d(0), ...byDigest(d(3), dx)]);
    const inA = await query({ sort_by: [{ field: 'scores.correct', direction: 'desc' }] });
    expect(order(inA)).toEqual([...byDigest(d(0), d(1), d(2)), d(3), dx]);
    // A nested path: judge.score is only in row 3 of A.
    const nested = await query({ sort_by: [{ field: 'scores.judge.score', direction: 'asc' }] });
    expect(order(nested)[0]).toBe(d(3));
  });

  it('pages after sorting; total_rows counts every row', async () => {
    const page = await query({ sort_by: [{ field: 'scores.dist', direction: 'desc', mode: 'difference' }], limit: 2, offset: 1 });
    expect(page.total_rows).toBe(5);
    expect(order(page)).toEqual([byDigest(d(1), d(2))[1], d(0)]);
    expect((await query({ limit: 0 })).rows).toEqual([]);
    expect((await query({ offset: 5 })).rows).toEqual([]);
  });

  it('require_intersection keeps the rows every evaluation has', async () => {
    const res = await query({ require_intersection: true });
    expect(res.total_rows).toBe(3);
    expect(order(res)).toEqual(byDigest(d(0), d(1), d(2)));
  });

  it('only_changed keeps the rows worse (or better) than the baseline', async () => {
    const worse = await query({ only_changed: { field: 'scores.correct', direction: 'worse' } });
    expect(order(worse)).toEqual(byDigest(d(1), d(2)));
    expect(worse.total_rows).toBe(2);
    expect((await query({ only_changed: { field: 'scores.correct', direction: 'better' } })).total_rows).toBe(0);
    // With B as the baseline, A is better on rows 1 and 2.
    const swapped = await query({ evaluation_call_ids: ['ev-b', 'ev-a'], only_changed: { field: 'scores.correct', direction: 'better' } });
    expect(order(swapped)).toEqual(byDigest(d(1), d(2)));
  });

  it('summarizes every row of each evaluation', async () => {
    const stats = (key: string, path: string | null, type: string, f: Partial<T.EvalResultsScorerStats>) => ({
      scorer_key: key,
      path,
      value_type: type,
      trial_count: 0,
      numeric_count: 0,
      numeric_mean: null,
      pass_true_count: 0,
      pass_known_count: 0,
      pass_rate: null,
      pass_signal_coverage: null,
      ...f,
    });
    const res = await query({ include_rows: false, include_summary: true, only_changed: { field: 'scores.correct', direction: 'worse' } });
    expect(res.rows).toEqual([]);
    expect(res.total_rows).toBe(0);
    expect(res.summary).toEqual({
      row_count: 5,
      evaluations: [
        {
          evaluation_call_id: 'ev-a',
          trial_count: 4,
          evaluation_ref: 'eval-ref',
          model_ref: MODEL_A,
          display_name: 'run A',
          trace_id: 'trace-ev-a',
          started_at: at(0),
          scorer_stats: [
            stats('correct', null, 'binary', {
              trial_count: 4,
              pass_true_count: 3,
              pass_known_count: 4,
              pass_rate: 0.75,
              pass_signal_coverage: 1,
            }),
            stats('dist', null, 'continuous', { trial_count: 4, numeric_count: 4, numeric_mean: 0.75, pass_signal_coverage: 0 }),
            stats('judge', 'passed', 'binary', { trial_count: 1, pass_known_count: 1, pass_rate: 0, pass_signal_coverage: 1 }),
            stats('judge', 'score', 'continuous', { trial_count: 1, numeric_count: 1, numeric_mean: 0.25, pass_signal_coverage: 0 }),
          ],
        },
        {
          evaluation_call_id: 'ev-b',
          trial_count: 5,
          evaluation_ref: 'eval-ref',
          model_ref: MODEL_B,
          display_name: 'run B',
          trace_id: 'trace-ev-b',
          started_at: at(1),
          scorer_stats: [
            stats('correct', null, 'binary', {
              trial_count: 4,
              pass_true_count: 2,
              pass_known_count: 4,
              pass_rate: 0.5,
              pass_signal_coverage: 1,
            }),
            stats('dist', null, 'continuous', { trial_count: 4, numeric_count: 4, numeric_mean: 1.5, pass_signal_coverage: 0 }),
          ],
        },
      ],
    });
    const both = await query({ include_summary: true, summary_require_intersection: true });
    expect(both.total_rows).toBe(5);
    expect(both.summary!.row_count).toBe(3);
    expect(both.summary!.evaluations.map((e) => [e.trial_count, e.scorer_stats.map((s) => s.numeric_mean ?? s.pass_rate)])).toEqual([
      [3, [1, 0]],
      [4, [0.5, 1.5]],
    ]);
  });

  it('gives the examples as recorded, or the dataset rows they name', async () => {
    const raw = await query({ include_raw_data_rows: true });
    const rawOf = (res: T.EvalResultsQueryRes, digest: string) => res.rows.find((r) => r.row_digest === digest)!.raw_data_row;
    expect(rawOf(raw, d(1))).toBe(rowRefs[1]);
    expect(rawOf(raw, dx)).toEqual(inline);
    const resolved = await query({ include_raw_data_rows: true, resolve_row_refs: true });
    expect([0, 1, 2, 3].map((i) => rawOf(resolved, d(i)))).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
    expect(rawOf(resolved, dx)).toEqual(inline);
    expect(resolved.warnings).toEqual([]);
    // A caller who may not read the dataset's project keeps the refs, with a warning.
    const blind = await evalResultsQuery(
      getDb(),
      catalogue,
      { project_id: P, evaluation_call_ids: ['ev-a'], include_raw_data_rows: true, resolve_row_refs: true },
      { user: 'bob', mayRead: () => false },
    );
    expect(blind.rows.map((r) => r.raw_data_row)).toEqual(byDigest(d(0), d(1), d(2), d(3)).map((dg) => rowRefs[digests.indexOf(dg)]));
    expect(blind.warnings).toEqual(['4 dataset row ref(s) could not be resolved; their raw_data_row is the ref']);
  });

  it("never shows another project's calls", async () => {
    const res = await query({ evaluation_call_ids: ['ev-x'], include_summary: true });
    expect(res).toEqual({ rows: [], total_rows: 0, summary: { row_count: 0, evaluations: [] }, warnings: [] });
    const own = await evalResultsQuery(getDb(), catalogue, { project_id: OTHER, evaluation_call_ids: ['ev-x', 'ev-a'] }, ctx);
    expect(own.rows.map((r) => r.evaluations.map((e) => e.trials.map((t) => t.predict_and_score_call_id)))).toEqual([[['x0']]]);
  });

  it('refuses what it cannot answer, naming the field', async () => {
    const fails = async (req: Parameters<typeof query>[0], loc: string[]) => {
      await expect(query(req)).rejects.toMatchObject({ status: 422, detail: [expect.objectContaining({ loc })] });
    };
    await fails({ evaluation_call_ids: ['ev-a'], only_changed: { field: 'scores.correct', direction: 'worse' } }, ['body', 'only_changed']);
    await fails({ resolve_row_refs: true }, ['body', 'resolve_row_refs']);
    await fails({ sort_by: [{ field: 'scores.dist', direction: 'asc', evaluation_call_id: 'ev-z' }] }, [
      'body',
      'sort_by',
      '0',
      'evaluation_call_id',
    ]);
    await fails({ sort_by: [{ field: 'scores.dist', direction: 'asc', mode: 'difference', evaluation_call_id: 'ev-a' }] }, [
      'body',
      'sort_by',
      '0',
      'evaluation_call_id',
    ]);
  });

  it("reads the trials and their children through calls_parent_idx, not the project's calls", async () => {
    const db = getDb();
    for (const query of [trialKeysQuery(db, P, ['ev-a', 'ev-b']), childCallsQuery(db, P, ['a0', 'b1'])]) {
      expect(await queryPlan(db, query.compile(), { seqscanOff: 'calls' })).toContain('calls_parent_idx');
    }
  });
});
