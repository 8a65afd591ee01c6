// The published `weave` npm SDK's evaluations against a real Weft server (issue 30, item 0):
// `Evaluation.evaluate` of two models (a model op, two scorers, 50 rows) and the same rows through
// `EvaluationLogger`. The SDK ends its calls with `display_name`, which once made Weft refuse whole
// batches (the SDK retried, gave up and stored nothing). Here every call the SDK sent is stored,
// in the tree the SDK built, with the summaries it computed (checked against numbers worked out by
// hand below), on both databases; and eval_results/query compares the two evaluations example by
// example, with the summary the SDK computed.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { runSdkScript, type SdkRun } from './run-sdk-script.ts';

const PROJECT = 'acme/weave-eval-e2e';
const ROWS = 50;
// The rows sloppy_adder gets wrong: n = 0, 3, …, 48.
const MISSES = [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48];

interface Wire {
  batches: { status: number; starts: string[]; ends: { id: string; keys: string[] }[] }[];
  feedback: number[];
}
interface EvalResult {
  summaries: Record<'adder' | 'sloppy_adder', Record<string, unknown>>;
  wire: Wire;
}

/** The op's name in a call's op_name ref (`weave:///e/p/op/<name>:<digest>`). */
const opOf = (call: T.CallSchema) => call.op_name.split('/op/')[1]?.split(':')[0] ?? call.op_name;

describeEachDatabase("the weave SDK's evaluations against Weft", (getServer) => {
  let run: SdkRun;
  let calls: T.CallSchema[];
  beforeAll(async () => {
    run = await runSdkScript({
      url: getServer().url,
      apiKey: getServer().aliceKey,
      project: PROJECT,
      timeoutMs: 120_000,
      script: 'weave-eval-script.mjs',
    });
    calls = await getServer().client().callsStreamQuery({ project_id: PROJECT });
  }, 150_000);

  function sdk(): EvalResult {
    if (run.result === undefined) throw new Error(`the SDK script gave no result\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
    return run.result as EvalResult;
  }
  const childrenOf = (id: string) => calls.filter((c) => c.parent_id === id);
  const byOp = (name: string) => calls.filter((c) => opOf(c) === name);

  it('runs to the end: exit 0, no failed batch, no error output', () => {
    const output = `${run.stdout}\n${run.stderr}`;
    expect({ code: run.code, signal: run.signal }, output).toEqual({ code: 0, signal: null });
    expect(output).not.toMatch(/Error processing batch|Exceeded max errors|Error saving|Error parsing JSON/);
    // Every other line is the SDK's; its progress lines count errors ("0 errors").
    const sdkLines = output.split('\n').filter((l) => !l.startsWith('WEFT_E2E_RESULT ') && !/^Evaluating \d+\/\d+ examples/.test(l));
    expect(sdkLines.filter((l) => /error|warn/i.test(l))).toEqual([]);
    expect(run.errorLog, 'weaveErrors.log').toBeUndefined();
  });

  it("answered every batch 200, ends with the SDK's display_name among them", () => {
    const { batches, feedback } = sdk().wire;
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.map((b) => b.status).filter((s) => s !== 200)).toEqual([]);
    const ends = batches.flatMap((b) => b.ends);
    // The case that was lost: ends that carry display_name (the evaluate calls, the imperative scorers).
    expect(ends.filter((e) => e.keys.includes('display_name')).length).toBeGreaterThanOrEqual(2 + 2 * ROWS);
    expect(feedback).toEqual(Array<number>(2 * ROWS).fill(200));
  });

  it('stores every call the SDK started, each ended, none twice', () => {
    const { batches } = sdk().wire;
    const started = batches.flatMap((b) => b.starts);
    const ended = batches.flatMap((b) => b.ends.map((e) => e.id));
    expect(new Set(started).size).toBe(started.length);
    expect(new Set(ended)).toEqual(new Set(started));
    expect(calls.map((c) => c.id).sort()).toEqual([...started].sort());
    for (const call of calls) {
      expect(call.ended_at, opOf(call)).toEqual(expect.any(String));
      expect(call.exception, opOf(call)).toBeUndefined();
      expect((call.summary as { weave: { status: string } }).weave.status, opOf(call)).toBe('success');
    }
  });

  it('stores the calls of each op, counted by hand', () => {
    const counts: Record<string, number> = {};
    for (const call of calls) counts[opOf(call)] = (counts[opOf(call)] ?? 0) + 1;
    expect(counts).toEqual({
      // Evaluation.evaluate: two models, one predictAndScore per row, each calling the model and both scorers.
      'Evaluation.evaluate': 2 + 1, // + the EvaluationLogger's
      'Evaluation.predictAndScore': 2 * ROWS,
      adder: ROWS,
      sloppy_adder: ROWS,
      exact_match: 2 * ROWS,
      distance: 2 * ROWS,
      // EvaluationLogger: one predict_and_score per prediction (a predict and a call per score), a summarize.
      'Evaluation.predict_and_score': ROWS,
      'Model.predict': ROWS,
      'exact.score': ROWS,
      'distance.score': ROWS,
      'Evaluation.summarize': 1,
    });
  });

  it("stores each evaluation as the SDK built it: its children, their children, its start's name and its summary", () => {
    const evaluations = byOp('Evaluation.evaluate').filter((c) => c.display_name !== undefined);
    expect(evaluations.map((c) => c.display_name).sort()).toEqual(['sums-eval_adder', 'sums-eval_sloppy_adder']);
    // What each model scores, worked out by hand: rows n = 0…49 expect 2n (their sum is 2450); adder
    // answers 2n, sloppy_adder 2n + 1 on the 17 rows n = 0, 3, …, 48.
    const expected = {
      adder: { exact_match: { true_count: 50, true_fraction: 1 }, distance: { mean: 0 }, model_output: { mean: 49 } },
      sloppy_adder: { exact_match: { true_count: 33, true_fraction: 0.66 }, distance: { mean: 0.34 }, model_output: { mean: 2467 / 50 } },
    };
    for (const model of ['adder', 'sloppy_adder'] as const) {
      const evaluation = evaluations.find((c) => c.display_name === `sums-eval_${model}`)!;
      expect(evaluation.parent_id).toBeUndefined();
      expect(evaluation.output).toEqual(sdk().summaries[model]);
      expect(evaluation.output).toMatchObject({ ...expected[model], model_success: { true_count: 50, true_fraction: 1 } });
      expect((evaluation.summary as { weave: Record<string, unknown> }).weave).toMatchObject({ display_name: `sums-eval_${model}` });

      const rows = childrenOf(evaluation.id);
      expect(rows.map(opOf)).toEqual(Array<string>(ROWS).fill('Evaluation.predictAndScore'));
      const seen = rows.map((row) => (row.inputs as { example: string }).example).sort();
      expect(new Set(seen).size).toBe(ROWS); // one per dataset row (each a row ref)
      for (const row of rows) {
        expect(row.trace_id).toBe(evaluation.trace_id);
        const inner = childrenOf(row.id);
        expect(inner.map(opOf).sort()).toEqual(['distance', 'exact_match', model].sort());
        const output = inner.find((c) => opOf(c) === model)!.output as number;
        expect(row.output).toMatchObject({ model_success: true, model_output: output });
        const scores = (row.output as { scores: Record<string, unknown> }).scores;
        expect(inner.find((c) => opOf(c) === 'exact_match')!.output).toBe(scores.exact_match);
        expect(inner.find((c) => opOf(c) === 'distance')!.output).toBe(scores.distance);
      }
    }
  });

  it("stores the EvaluationLogger's evaluation, its predictions, scores and summary, and the scores as feedback", async () => {
    const [logged] = byOp('Evaluation.evaluate').filter((c) => c.display_name === undefined);
    expect(logged).toBeDefined();
    // Rows n = 0…49 logged with output 2n, or 2n + 2 on n = 0, 4, …, 48: 13 misses, each 2 away.
    const summary = { exact: { true_count: 37, true_fraction: 0.74 }, distance: { mean: 0.52 } };
    expect(logged!.output).toEqual(summary);
    const children = childrenOf(logged!.id);
    expect(children.filter((c) => opOf(c) === 'Evaluation.summarize').map((c) => c.output)).toEqual([summary]);
    const predictions = children.filter((c) => opOf(c) === 'Evaluation.predict_and_score');
    expect(predictions).toHaveLength(ROWS);
    const predictIds: string[] = [];
    for (const prediction of predictions) {
      const inner = childrenOf(prediction.id);
      expect(inner.map(opOf).sort()).toEqual(['Model.predict', 'distance.score', 'exact.score']);
      expect(
        inner
          .filter((c) => opOf(c) !== 'Model.predict')
          .map((c) => c.display_name)
          .sort(),
      ).toEqual(['distance.score', 'exact.score']);
      predictIds.push(inner.find((c) => opOf(c) === 'Model.predict')!.id);
    }

    const { result } = await getServer()
      .client()
      .POST('/feedback/query', { body: { project_id: PROJECT } });
    const rows = result as { feedback_type: string; weave_ref: string }[];
    expect(rows.map((f) => f.feedback_type).sort()).toEqual([
      ...Array<string>(ROWS).fill('wandb.runnable.distance'),
      ...Array<string>(ROWS).fill('wandb.runnable.exact'),
    ]);
    expect(new Set(rows.map((f) => f.weave_ref))).toEqual(new Set(predictIds.map((id) => `weave:///${PROJECT}/call/${id}`)));
  });

  it('compares the two evaluations example by example, and summarizes each as the SDK did', async () => {
    const evaluations = byOp('Evaluation.evaluate').filter((c) => c.display_name !== undefined);
    const evaluationOf = (model: string) => evaluations.find((c) => c.display_name === `sums-eval_${model}`)!;
    const [adder, sloppy] = [evaluationOf('adder'), evaluationOf('sloppy_adder')];
    const [entity, project] = PROJECT.split('/') as [string, string];
    const query = (body: Omit<T.EvalResultsQueryReq, 'evaluation_call_ids'>) =>
      getServer()
        .client()
        .POST('/v2/{entity}/{project}/eval_results/query', {
          params: { path: { entity, project } },
          body: { evaluation_call_ids: [adder.id, sloppy.id], ...body },
        });

    const all = await query({ include_raw_data_rows: true, resolve_row_refs: true, include_summary: true, require_intersection: true });
    expect(all.total_rows).toBe(ROWS);
    expect(all.warnings).toEqual([]);
    const seen = new Set<number>();
    for (const row of all.rows) {
      // The resolved dataset row, and the digest its ref names in every trial.
      const n = (row.raw_data_row as { n: number }).n;
      seen.add(n);
      expect(row.raw_data_row).toMatchObject({ n, expected: 2 * n });
      expect(row.evaluations.map((e) => e.evaluation_call_id)).toEqual([adder.id, sloppy.id]);
      const wrong = n % 3 === 0;
      for (const [i, model] of (['adder', 'sloppy_adder'] as const).entries()) {
        const trials = row.evaluations[i]!.trials;
        expect(trials).toHaveLength(1);
        const trial = trials[0]!;
        const call = calls.find((c) => c.id === trial.predict_and_score_call_id)!;
        expect(call.parent_id).toBe(row.evaluations[i]!.evaluation_call_id);
        expect((call.inputs as { example: string }).example).toMatch(new RegExp(`/attr/rows/id/${row.row_digest}$`));
        const sloppyMiss = model === 'sloppy_adder' && wrong;
        expect(trial.model_output).toBe(sloppyMiss ? 2 * n + 1 : 2 * n);
        expect(trial.scores).toEqual({ exact_match: !sloppyMiss, distance: sloppyMiss ? 1 : 0 });
        const children = childrenOf(call.id);
        const childOf = (op: string) => children.find((c) => opOf(c) === op)!.id;
        expect(trial.predict_call_id).toBe(childOf(model));
        expect(trial.scorer_call_ids).toEqual({ exact_match: childOf('exact_match'), distance: childOf('distance') });
        expect(trial.model_latency_seconds).toEqual(expect.any(Number));
      }
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: ROWS }, (_, i) => i));

    // The regressions: the rows sloppy_adder gets wrong (MISSES), found by the filter and by the spread.
    const nOf = (res: T.EvalResultsQueryRes) =>
      res.rows
        .map((r) => all.rows.find((a) => a.row_digest === r.row_digest)!.raw_data_row as { n: number })
        .map((r) => r.n)
        .sort((a, b) => a - b);
    const worse = await query({ only_changed: { field: 'scores.exact_match', direction: 'worse' } });
    expect([worse.total_rows, nOf(worse)]).toEqual([MISSES.length, MISSES]);
    const spread = await query({ sort_by: [{ field: 'scores.distance', direction: 'desc', mode: 'difference' }], limit: MISSES.length });
    expect(nOf(spread)).toEqual(MISSES);
    const page = await query({
      sort_by: [{ field: 'scores.distance', direction: 'desc', mode: 'difference' }],
      limit: 4,
      offset: MISSES.length,
    });
    expect(page.rows.map((r) => r.row_digest)).toEqual(
      all.rows
        .map((r) => r.row_digest)
        .filter((d) => !spread.rows.some((s) => s.row_digest === d))
        .sort()
        .slice(0, 4),
    );

    // Each summary against the one the SDK computed (evaluate's output).
    expect(all.summary!.row_count).toBe(ROWS);
    for (const [i, model] of (['adder', 'sloppy_adder'] as const).entries()) {
      const mine = all.summary!.evaluations[i]!;
      const theirs = sdk().summaries[model] as { exact_match: { true_count: number; true_fraction: number }; distance: { mean: number } };
      const evaluation = evaluationOf(model);
      expect(mine).toMatchObject({
        evaluation_call_id: evaluation.id,
        trial_count: ROWS,
        display_name: `sums-eval_${model}`,
        trace_id: evaluation.trace_id,
        started_at: evaluation.started_at,
        model_ref: (evaluation.inputs as { model: unknown }).model,
        evaluation_ref: (evaluation.inputs as { self: unknown }).self,
      });
      const stat = (key: string) => mine.scorer_stats.find((s) => s.scorer_key === key && s.path === null)!;
      expect(stat('exact_match')).toMatchObject({
        value_type: 'binary',
        trial_count: ROWS,
        pass_true_count: theirs.exact_match.true_count,
        pass_known_count: ROWS,
      });
      expect(stat('exact_match').pass_rate).toBeCloseTo(theirs.exact_match.true_fraction, 12);
      expect(stat('distance')).toMatchObject({ value_type: 'continuous', trial_count: ROWS, numeric_count: ROWS });
      expect(stat('distance').numeric_mean).toBeCloseTo(theirs.distance.mean, 12);
    }
  });
});
