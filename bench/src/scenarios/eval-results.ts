// Scenario 14 (issue 30): POST /v2/{entity}/{project}/eval_results/query, a page of 50 rows of two
// evaluations compared example by example, sorted by the spread of a score across them, with the
// summary: on evaluations of 10,000 examples and of 100. Each trial is a predict-and-score call
// with its predict child, written through /call/upsert_batch into projects of this run. Target:
// the large comparison within 2× the small one. The answer needs every trial's score (the sort
// and the summary span all rows), so a page costs a read of the evaluations' trials.
import { checkOnce, measureHttp, timeOnce, type Figure, type Target } from '../load.ts';
import { say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { startWeft, ENTITY } from '../servers/weft.ts';
import type { RunContext } from './context.ts';

const SIZES = { large: 10_000, small: 100 } as const;
type Size = keyof typeof SIZES;
const BATCH_ITEMS = 2_000;
const PAGE = 50;

/** Two evaluations of `examples` rows; the second model is wrong on every seventh. Returns their ids. */
async function writeEvaluations(url: string, headers: Record<string, string>, project: string, examples: number, stamp: number) {
  const projectId = `${ENTITY}/${project}`;
  const ids: string[] = [];
  const at = (ms: number) => new Date(Date.UTC(2025, 5, 3) + ms).toISOString();
  for (const model of ['adder', 'sloppy_adder']) {
    const evaluation = `${stamp}-${project}-${model}`;
    ids.push(evaluation);
    const modelRef = `weave:///${projectId}/op/${model}:m0del`;
    let batch: unknown[] = [];
    const send = async () => {
      const res = await fetch(`${url}/call/upsert_batch`, { method: 'POST', headers, body: JSON.stringify({ batch }) });
      if (res.status !== 200) throw new Error(`call/upsert_batch answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      batch = [];
    };
    const start = (id: string, parent: string | undefined, op: string, ms: number, inputs: unknown) => ({
      mode: 'start',
      req: {
        start: {
          project_id: projectId,
          id,
          trace_id: evaluation,
          parent_id: parent,
          op_name: op,
          started_at: at(ms),
          attributes: {},
          inputs,
        },
      },
    });
    const end = (id: string, ms: number, output: unknown) => ({
      mode: 'end',
      req: { end: { project_id: projectId, id, ended_at: at(ms), output, summary: {} } },
    });
    batch.push(start(evaluation, undefined, `weave:///${projectId}/op/Evaluation.evaluate:ev4l`, 0, { self: 'eval', model: modelRef }));
    for (let i = 0; i < examples; i++) {
      const trial = `${evaluation}-${i}`;
      const wrong = model === 'sloppy_adder' && i % 7 === 0;
      const output = wrong ? 2 * i + 1 : 2 * i;
      const example = `weave:///${projectId}/object/sums:d4taset/attr/rows/id/row${String(i).padStart(6, '0')}`;
      batch.push(
        start(trial, evaluation, `weave:///${projectId}/op/Evaluation.predict_and_score:p4s`, i * 10, {
          self: 'eval',
          model: modelRef,
          example,
        }),
        start(`${trial}-predict`, trial, modelRef, i * 10 + 1, { n: i }),
        end(`${trial}-predict`, i * 10 + 5, output),
        end(trial, i * 10 + 6, { output, scores: { exact_match: !wrong, distance: wrong ? 1 : 0 }, model_latency: 0.004 }),
      );
      if (batch.length >= BATCH_ITEMS) await send();
    }
    batch.push(end(evaluation, examples * 10 + 10, {}));
    await send();
  }
  return ids;
}

export async function evalResultsScenario(ctx: RunContext): Promise<ScenarioResult> {
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  try {
    // Projects of this run: a database reused across runs must not already hold them.
    const stamp = Date.now();
    const targets = {} as Record<Size, Target>;
    const writeMs = {} as Record<Size, number>;
    for (const size of ['large', 'small'] as const) {
      const project = `eval-results-${size}-${stamp}`;
      say(`  eval_results: writing two evaluations of ${SIZES[size].toLocaleString('en-US')} examples`);
      let ids: string[] = [];
      writeMs[size] = await timeOnce(async () => {
        ids = await writeEvaluations(weft.url, ctx.creds.headers, project, SIZES[size], stamp);
      });
      targets[size] = {
        url: `${weft.url}/v2/${ENTITY}/${project}/eval_results/query`,
        headers: ctx.creds.headers,
        body: JSON.stringify({
          evaluation_call_ids: ids,
          include_summary: true,
          sort_by: [{ field: 'scores.distance', direction: 'desc', mode: 'difference' }],
          limit: PAGE,
        }),
      };
      const answer = JSON.parse(await checkOnce(targets[size])) as { total_rows: number; rows: unknown[] };
      if (answer.total_rows !== SIZES[size] || answer.rows.length !== PAGE)
        throw new Error(`eval_results/query answered ${answer.total_rows} rows`);
    }
    const figures: Record<Size, Figure[]> = { large: [], small: [] };
    for (let round = 0; round < 2; round++) {
      for (const size of ['large', 'small'] as const) {
        say(`  eval_results round ${round + 1}: ${SIZES[size].toLocaleString('en-US')} examples`);
        figures[size].push(await measureHttp(targets[size], { connections: 1, duration: ctx.seconds / 2, warmup: 1 }));
      }
    }
    const mean = (size: Size) => figures[size].reduce((s, f) => s + f.meanMs, 0) / figures[size].length;
    const n = (k: number) => k.toLocaleString('en-US');
    return {
      id: 'eval-results',
      title: `14. POST /v2/{entity}/{project}/eval_results/query, two evaluations, a page of ${PAGE} sorted by score difference, with the summary`,
      lines: [
        {
          measure: `${n(SIZES.large)} vs ${n(SIZES.small)} examples`,
          value: fmt.ms(mean('large')),
          baseline: `${n(SIZES.small)}: ${fmt.ms(mean('small'))}`,
          ratio: mean('large') / mean('small'),
          target: { op: '<=', value: 2 },
        },
      ],
      notes: [
        `Each evaluation: one predict-and-score call per example (a dataset row ref, two scores) with its predict child, written by /call/upsert_batch (${fmt.ms(writeMs.large)} for the two large ones). Mean latency of one client in a loop, 2 alternating rounds of ${ctx.seconds / 2} s per figure.`,
        'A page needs every trial’s scores (the sort and the summary span all rows): its cost grows with the examples, read through calls_parent_idx on the reader thread, grouped and sorted in turns of the event loop.',
      ],
      raw: { sizes: SIZES, page: PAGE, writeMs, figures },
    };
  } finally {
    await weft.stop();
  }
}
