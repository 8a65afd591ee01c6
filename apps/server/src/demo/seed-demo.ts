// `weft demo`: a realistic project written through the store (the same rules as the API), so a
// new user sees data at once in Weft Studio: agent traces with an error, a dataset in two versions,
// an annotation queue, feedback, and an ART run over 20 steps. A project that already holds data
// is left alone (nothing is written twice).
import type { Store } from '@weft/store';
import { modelLogPieces } from '@weft/store';
import { demoLogs, DEMO_STEPS } from './demo-run.ts';
import { demoTraces } from './demo-traces.ts';

export interface DemoSummary {
  projectId: string;
  /** false: the project already held data, nothing was written. */
  written: boolean;
  calls: number;
  rows: number;
  steps: number;
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
    return { projectId, written: false, calls: 0, rows: 0, steps: 0 };
  }

  const calls = demoTraces(projectId, now);
  say(`traces: ${calls.length} calls…`);
  for (const c of calls) await store.callStart({ start: c.start }, USER);
  for (const c of [...calls].reverse()) await store.callEnd({ end: c.end }, USER);

  const rows = Array.from({ length: 50 }, (_, i) => ({
    question: `Customer question ${i + 1}`,
    expected: { intent: ['account', 'billing', 'shipping'][i % 3], difficulty: 1 + (i % 5) },
  }));
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
  const ref = (callId: string) => `weave:///${projectId}/call/${callId}`;
  const roots = calls.filter((c) => c.start.parent_id === null).map((c) => c.start.id!);
  await store.feedbackCreate(
    { project_id: projectId, weave_ref: ref(roots[0]!), feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } },
    USER,
  );
  await store.feedbackCreate(
    { project_id: projectId, weave_ref: ref(roots[1]!), feedback_type: 'wandb.note.1', payload: { note: 'Good answer, a bit long.' } },
    USER,
  );
  await store.feedbackCreate(
    {
      project_id: projectId,
      weave_ref: ref(roots[3]!),
      feedback_type: 'wandb.note.1',
      payload: { note: 'Rate limited: retry with backoff?' },
    },
    USER,
  );

  say(`ART run: ${DEMO_STEPS} steps…`);
  const model = await store.modelCreate(
    { entity, project, name: 'support-agent', base_model: 'Qwen/Qwen3-8B', return_existing: true },
    USER,
  );
  for (const { step, body } of demoLogs(model.id)) {
    if (step > 0 && body.split === 'train') await store.modelCheckpointCreate({ model_id: model.id, step }, USER);
    await store.modelLog({ model_id: model.id, pieces: modelLogPieces(body) }, USER);
  }
  return { projectId, written: true, calls: calls.length, rows: rows.length, steps: DEMO_STEPS };
}
