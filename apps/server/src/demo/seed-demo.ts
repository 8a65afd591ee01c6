// `weft demo`: a realistic project written through the store (the same rules as the API), so a
// new user sees data at once in Weft Studio: agent traces with an error, a dataset in two versions,
// an annotation queue, feedback (a reaction, notes, a scorer's results), and an ART run over 20
// steps. A project that already holds data is left alone: nothing is written twice, and a user's
// own data under that name is never mixed with the demo's.
import type { Store } from '@weft/store';
import type * as T from '@weft/types';
import { modelLogPieces } from '@weft/store';
import { demoRun, DEMO_STEPS, trajectoryCount } from './demo-run.ts';
import { DEMO_TRACES, demoTraces, FAILED_TRACES } from './demo-traces.ts';

export interface DemoSummary {
  projectId: string;
  /** false: the project already held data, nothing was written. */
  written: boolean;
  traces: number;
  calls: number;
  rows: number;
  feedback: number;
  steps: number;
  trajectories: number;
}

const USER = { user: 'demo' };

// The generated types read the spec's free-form row objects as Record<string, never> (no value
// fits); the rows are plain JSON objects, as any client sends them.
const freeForm = (rows: object[]) => rows as unknown as Array<Record<string, never>>;

export async function seedDemo(store: Store, projectId: string, say: (line: string) => void, now = Date.now()): Promise<DemoSummary> {
  const [entity, project] = projectId.split('/') as [string, string];
  const existing = await store.projectsList({ entities: [entity] }, USER);
  if (existing.projects.some((p) => p.project_id === projectId)) {
    say(`${projectId} already holds data: nothing written (name another project with --project).`);
    return { projectId, written: false, traces: 0, calls: 0, rows: 0, feedback: 0, steps: 0, trajectories: 0 };
  }

  const calls = demoTraces(projectId, now);
  say(`traces: ${calls.length} calls…`);
  for (const c of calls) await store.callStart({ start: c.start }, USER);
  for (const c of [...calls].reverse()) await store.callEnd({ end: c.end }, USER);

  // An evaluation set for the agent: a question, the intent it should route to, how hard it is.
  const templates = [
    (n: number) => ['account', `How do I change the email on account #${1000 + n}?`],
    (n: number) => ['billing', `Why was invoice INV-${2000 + n} charged twice?`],
    (n: number) => ['shipping', `When will order #${4500 + n} arrive?`],
  ] as const;
  const rows = Array.from({ length: 50 }, (_, i) => {
    const [intent, question] = templates[i % 3]!(i);
    return { question, expected: { intent, difficulty: 1 + (i % 5) } };
  });
  say(`dataset: ${rows.length} rows in two versions…`);
  const lossless = { ...USER, source: undefined };
  const v1 = await store.tableCreate({ table: { project_id: projectId, rows: freeForm(rows.slice(0, 40)) } }, lossless);
  const v2 = await store.tableCreate({ table: { project_id: projectId, rows: freeForm(rows) } }, lossless);
  for (const [n, table] of [v1, v2].entries()) {
    const val = {
      _type: 'Dataset',
      _class_name: 'Dataset',
      _bases: ['Object', 'BaseModel'],
      name: 'support-questions',
      description: `v${n}`,
      rows: `weave:///${projectId}/table/${table.digest}`,
    };
    await store.objCreate({ obj: { project_id: projectId, object_id: 'support-questions', val } }, lossless);
  }

  say('annotation queue and feedback…');
  await store.annotationQueueCreate(
    { project_id: projectId, name: 'Answer review', description: 'Check that answers are correct and polite', scorer_refs: [] },
    USER,
  );
  // A class-based Weave scorer, published as an object: its results are `wandb.runnable.<name>`
  // feedback pointing at it, as `call.apply_scorer(...)` records them.
  const scorer = await store.objCreate(
    {
      obj: {
        project_id: projectId,
        object_id: 'AnswerCorrectness',
        val: { _type: 'AnswerCorrectness', _class_name: 'AnswerCorrectness', _bases: ['Scorer', 'Object', 'BaseModel'], threshold: 0.7 },
      },
    },
    lossless,
  );
  const ref = (callId: string) => `weave:///${projectId}/call/${callId}`;
  const roots = calls.filter((c) => c.start.parent_id === null).map((c) => c.start.id!);
  const feedback: Array<Omit<T.FeedbackCreateReq, 'project_id' | 'weave_ref'> & { call: string }> = [
    { call: roots[0]!, feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } },
    { call: roots[1]!, feedback_type: 'wandb.note.1', payload: { note: 'Good answer, a bit long.' } },
    { call: roots[FAILED_TRACES[0]!]!, feedback_type: 'wandb.note.1', payload: { note: 'Rate limited: retry with backoff?' } },
    ...roots.slice(0, 6).map((call, i) => {
      const score = FAILED_TRACES.includes(i) ? 0 : Math.round((0.72 + 0.045 * i) * 100) / 100;
      return {
        call,
        feedback_type: 'wandb.runnable.AnswerCorrectness',
        runnable_ref: `weave:///${projectId}/object/AnswerCorrectness:${scorer.digest}`,
        payload: { output: { correct: score >= 0.7, score } },
      };
    }),
  ];
  for (const { call, ...f } of feedback) await store.feedbackCreate({ project_id: projectId, weave_ref: ref(call), ...f }, USER);

  say(`ART run: ${DEMO_STEPS} steps…`);
  const model = await store.modelCreate(
    { entity, project, name: 'support-agent', base_model: 'Qwen/Qwen3-8B', return_existing: true },
    USER,
  );
  const run = demoRun(model.id);
  for (const { logs, checkpoint } of run) {
    // Each log is recorded at the model's latest checkpoint, so logs go in before the step's checkpoint.
    for (const body of logs) await store.modelLog({ model_id: model.id, pieces: modelLogPieces(body) }, USER);
    await store.modelCheckpointCreate({ model_id: model.id, ...checkpoint }, USER);
  }
  return {
    projectId,
    written: true,
    traces: DEMO_TRACES,
    calls: calls.length,
    rows: rows.length,
    feedback: feedback.length,
    steps: DEMO_STEPS,
    trajectories: trajectoryCount(run),
  };
}
