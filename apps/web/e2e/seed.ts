// The data the end-to-end suite browses, written through the API as any client would: two agent
// traces (one whose LLM call fails), nested three deep, with chat messages and token usage.
import type { WeftClient } from '@weft/client';

/** Where the 800-call trace lives. */
export const BIG_PROJECT = 'acme/big-trace';

export interface Seeded {
  projectId: string;
  datasetRows: number;
  tableDigest: string;
  queueId: string;
  modelId: string;
  steps: number;
  okRoot: string;
  failedRoot: string;
  failedLlm: string;
  okLlm: string;
  /** A root of 800 calls (a trace too large to render whole). */
  bigRoot: string;
  retrieve: string;
}

type CallSpec = {
  id: string;
  op: string;
  parent?: string;
  start: number;
  end: number;
  inputs?: object;
  output?: unknown;
  exception?: string;
  usage?: object;
};

const T0 = Date.parse('2026-11-25T08:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

async function trace(api: WeftClient, projectId: string, traceId: string, calls: CallSpec[]): Promise<void> {
  const op = (name: string) => `weave:///${projectId}/op/${name}:Yz6f0ZI7cwVvXCzNXbLNXrSW0CCw5C8HJRg0yFbXm0w`;
  for (const c of calls) {
    await api.POST('/call/start', {
      body: {
        start: {
          project_id: projectId,
          id: c.id,
          trace_id: traceId,
          parent_id: c.parent ?? null,
          op_name: op(c.op),
          started_at: iso(c.start),
          attributes: {},
          inputs: (c.inputs ?? {}) as Record<string, never>,
        },
      },
    });
  }
  for (const c of [...calls].reverse()) {
    await api.POST('/call/end', {
      body: {
        end: {
          project_id: projectId,
          id: c.id,
          ended_at: iso(c.end),
          output: c.output ?? null,
          exception: c.exception ?? null,
          summary: (c.usage ? { usage: c.usage } : {}) as Record<string, never>,
        },
      },
    });
  }
}

/** `api` with Basic auth (trace operations), `art` with Bearer (ART's operations), one key. */
export async function seed(api: WeftClient, art: WeftClient, projectId: string): Promise<Seeded> {
  const ids = (n: number) => `0197331c-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const messages = [
    { role: 'system', content: 'You answer support questions.' },
    { role: 'user', content: 'How do I reset my password?' },
  ];
  const usage = { 'gpt-4o-mini': { requests: 1, prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 } };
  await trace(api, projectId, ids(100), [
    {
      id: ids(1),
      op: 'run_agent',
      start: 0,
      end: 2400,
      inputs: { question: 'How do I reset my password?' },
      output: { answer: 'Settings → Security.' },
    },
    { id: ids(2), op: 'retrieve', parent: ids(1), start: 100, end: 600, inputs: { query: 'reset password' }, output: ['doc-1', 'doc-2'] },
    {
      id: ids(3),
      op: 'openai.chat.completions.create',
      parent: ids(1),
      start: 700,
      end: 2200,
      inputs: { model: 'gpt-4o-mini', messages },
      output: { choices: [{ message: { role: 'assistant', content: 'Open Settings, then Security.' } }] },
      usage,
    },
    { id: ids(4), op: 'lookup_user', parent: ids(3), start: 900, end: 1000, inputs: { user: 'u-1' }, output: { plan: 'pro' } },
  ]);
  await trace(api, projectId, ids(200), [
    {
      id: ids(5),
      op: 'run_agent',
      start: 60_000,
      end: 61_500,
      inputs: { question: 'Cancel my order' },
      exception: 'RateLimitError: 429 Too Many Requests',
    },
    {
      id: ids(6),
      op: 'openai.chat.completions.create',
      parent: ids(5),
      start: 60_100,
      end: 61_400,
      inputs: { model: 'gpt-4o-mini', messages },
      exception: 'RateLimitError: 429 Too Many Requests',
    },
  ]);
  // A wide trace (in a project of its own, so the traces page above keeps two roots): one root and 799 children, written in one batch as the SDKs batch calls.
  const bigRoot = ids(9000);
  const big = Array.from({ length: 800 }, (_, i) => ({
    id: i === 0 ? bigRoot : ids(9001 + i),
    parent: i === 0 ? null : bigRoot,
    start: 120_000 + i,
  }));
  await api.POST('/call/upsert_batch', {
    body: {
      batch: big.flatMap((c, i) => [
        {
          mode: 'start' as const,
          req: {
            start: {
              project_id: BIG_PROJECT,
              id: c.id,
              trace_id: ids(9999),
              parent_id: c.parent,
              op_name: i === 0 ? 'batch_eval' : `item_${i}`,
              started_at: iso(c.start),
              attributes: {},
              inputs: {},
            },
          },
        },
        {
          mode: 'end' as const,
          req: {
            end: { project_id: BIG_PROJECT, id: c.id, ended_at: iso(c.start + (i === 0 ? 900 : 1)), summary: {} },
          },
        },
      ]),
    },
  });
  const datasetRows = 5000;
  const { digest: tableDigest } = await api.POST('/table/create', {
    body: {
      table: {
        project_id: projectId,
        rows: Array.from({ length: datasetRows }, (_, i) => ({
          question: `Question ${i}`,
          expected: { difficulty: (i * 7) % 10 },
        })) as unknown as Array<Record<string, never>>,
      },
    },
  });
  for (const version of [1, 2]) {
    await api.POST('/obj/create', {
      body: {
        obj: {
          project_id: projectId,
          object_id: 'support-questions',
          val: {
            _type: 'Dataset',
            _class_name: 'Dataset',
            _bases: ['Object', 'BaseModel'],
            name: `support questions v${version}`,
            rows: `weave:///${projectId}/table/${tableDigest}`,
          },
        },
      },
    });
  }
  const queue = await api.POST('/annotation_queues', {
    body: { project_id: projectId, name: 'Answer review', description: 'Check the answers', scorer_refs: [] },
  });
  const steps = await seedRun(art, projectId);
  return {
    projectId,
    okRoot: ids(1),
    bigRoot,
    failedRoot: ids(5),
    failedLlm: ids(6),
    okLlm: ids(3),
    retrieve: ids(2),
    datasetRows,
    tableDigest,
    queueId: queue.id,
    ...steps,
  };
}

/**
 * An ART run logged at steps 0..4 (train) and 0, 2, 4 (val), rewards rising with the step; step 4's
 * train log has a second group of STEP4_EXTRA trajectories (more than a page) whose rewards are
 * shuffled in the order they were logged.
 */
export const STEP4_EXTRA = 23;
/** Distinct rewards in a shuffled order: 7 is prime to 23, so i*7 mod 23 visits each residue once. */
export const STEP4_REWARDS = Array.from({ length: STEP4_EXTRA }, (_, i) => ((i * 7) % STEP4_EXTRA) / 25);

async function seedRun(api: WeftClient, projectId: string): Promise<{ modelId: string; steps: number }> {
  const [entity, project] = projectId.split('/') as [string, string];
  const model = await api.POST('/v1/preview/models', { body: { entity, project, name: 'agent-001', base_model: 'Qwen/Qwen3-8B' } });
  const steps = 5;
  const trajectory = (reward: number) => ({
    reward,
    metrics: { turns: 2 },
    messages_and_choices: [
      { role: 'user', content: 'Change my flight to Friday.' },
      { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `Done (reward ${reward}).` } },
    ],
  });
  for (let step = 0; step < steps; step++) {
    if (step > 0) await api.POST('/v1/preview/models/{model_id}/checkpoints', { params: { path: { model_id: model.id } }, body: { step } });
    for (const split of step % 2 === 0 ? ['train', 'val'] : ['train']) {
      await api.POST('/v1/preview/models/{model_id}/log', {
        params: { path: { model_id: model.id } },
        body: {
          model_id: model.id,
          split,
          trajectory_groups: [
            { trajectories: [trajectory(step / 10), trajectory(step / 10 + 0.2)] },
            ...(step === 4 && split === 'train' ? [{ trajectories: STEP4_REWARDS.map(trajectory) }] : []),
          ],
        } as never,
      });
    }
  }
  return { modelId: model.id, steps };
}
