// Writes a project with a row in every table the row mover knows, through the store as the API
// would, including what is easy to lose on the way: a float written `1.0` (Weave hashes it apart
// from `1`), a 20-digit integer, non-ASCII text, SQL NULL beside JSON null, bytes of every value,
// and JSON whose keys are not in PostgreSQL jsonb's order (`zz` before `aa`), which SQLite keeps
// as sent in every JSON column, and PostgreSQL in objects and table rows (a log's trajectories too).
import { loadCatalogue, parseLossless, toPlain } from '@weft/core';
import { createApiKeyStore } from '../../src/api-keys/api-key-store.ts';
import { createStore } from '../../src/create-store.ts';
import type { Db } from '../../src/db/index.ts';
import { modelLogPieces } from '../../src/models/model-log-rows.ts';
import type { LosslessContext } from '../../src/store.ts';

const catalogue = await loadCatalogue();
const USER = { user: 'alice' };
export const ALL_BYTES = Uint8Array.from({ length: 600 }, (_, i) => (i * 7) % 256);

/** As the HTTP layer calls a lossless operation: the plain body and its lossless parse. */
function viaHttp<Req>(body: string): [Req, LosslessContext] {
  const source = parseLossless(body);
  return [toPlain(source) as Req, { user: 'alice', source }];
}

export interface Seeded {
  floatObjectDigest: string;
  fileDigest: string;
}

/** `rows`: the dataset's size (more rows than a batch exercises paging). */
export async function seedEveryTable(db: Db, projectId: string, rows = 60): Promise<Seeded> {
  const store = createStore({ db, catalogue });
  const [entity, project] = projectId.split('/') as [string, string];

  const body = JSON.stringify({ obj: { project_id: projectId, object_id: 'floaty', val: {} } }).replace(
    '"val":{}',
    '"val":{"x":1.0,"big":12345678901234567890,"text":"é ✓ \\n","nested":{"b":2,"a":[1.50,null]},"lr":1e-05,"logprob":-1.2345e-05,"neg":-0.0}',
  );
  const float = await store.objCreate(...viaHttp<Parameters<typeof store.objCreate>[0]>(body));
  await store.objCreate({ obj: { project_id: projectId, object_id: 'floaty', val: { x: 2 } } }, { ...USER, source: undefined });
  // Tags (non-ASCII too) and an alias of the first version.
  await store.objAddTags({ project_id: projectId, object_id: 'floaty', digest: float.digest, tags: ['reviewed', 'überprüft'] }, USER);
  await store.objSetAliases({ project_id: projectId, object_id: 'floaty', digest: float.digest, aliases: ['production'] }, USER);

  const tableRows = Array.from({ length: rows }, (_, i) => ({ i, question: `q${i} ${'·'.repeat(i % 7)}`, score: i / 3 }));
  const table = await store.tableCreate({ table: { project_id: projectId, rows: tableRows } }, { ...USER, source: undefined });
  // A sorted read fills the sort-order cache (a `cache` table: not moved).
  await store.tableQuery({ project_id: projectId, digest: table.digest, sort_by: [{ field: 'score', direction: 'desc' }], limit: 3 }, USER);

  for (let i = 0; i < 5; i++) {
    const id = `0190000${i}-0000-7000-8000-00000000000${i}`;
    await store.callStart(
      {
        start: {
          project_id: projectId,
          id,
          trace_id: 'trace-1',
          parent_id: i === 0 ? null : '01900000-0000-7000-8000-000000000000',
          op_name: `weave:///${projectId}/op/step:abc`,
          started_at: `2025-01-01T00:00:0${i}.000Z`,
          attributes: { zz: i, aa: { y: 1, b: [2, { z: 3, a: 4 }] } },
          inputs: { prompt: `p${i}`, temperature: 0.5, aa: 'last' },
        },
      },
      USER,
    );
    // Call 4 never ends: its end columns stay SQL NULL.
    if (i < 4) {
      await store.callEnd(
        {
          end: {
            project_id: projectId,
            id,
            ended_at: `2025-01-01T00:01:0${i}.000Z`,
            output: i === 1 ? null : { answer: i, aa: 1 },
            summary: { zz: 1, aa: 2 },
          },
        },
        USER,
      );
    }
  }

  const file = await store.fileCreate({ project_id: projectId, content: ALL_BYTES }, USER);
  await store.feedbackCreate(
    {
      project_id: projectId,
      weave_ref: `weave:///${projectId}/call/01900000-0000-7000-8000-000000000000`,
      feedback_type: 'wandb.note.1',
      payload: { note: 'ok' },
    },
    USER,
  );
  await store.feedbackCreate(
    {
      project_id: projectId,
      weave_ref: `weave:///${projectId}/call/01900000-0000-7000-8000-000000000000`,
      feedback_type: 'review',
      payload: { zz: 'z', aa: { y: 1, b: 2 } },
    },
    USER,
  );
  // A price written as the Python SDK writes floats (exponents): moved as the exact decimal text.
  await store.costCreate(
    ...viaHttp<Parameters<typeof store.costCreate>[0]>(
      `{"project_id":"${projectId}","costs":{"acme/custom":{"prompt_token_cost":5e-06,"completion_token_cost":1.5E-5,"cache_read_input_token_cost":null}}}`,
    ),
  );
  await store.annotationQueueCreate({ project_id: projectId, name: 'review', description: '', scorer_refs: [] }, USER);

  const model = await store.modelCreate({ entity, project, name: 'agent', base_model: 'Qwen/Qwen3-8B', return_existing: true }, USER);
  for (const step of [1, 2]) {
    const log = {
      split: 'train',
      trajectory_groups: [0, 1].map((g) => ({
        trajectories: [0, 1].map((t) => ({
          messages_and_choices: [{ role: 'user', content: `s${step} g${g} t${t}` }],
          reward: g + t / 2,
          metrics: { zz: t, aa: g },
        })),
        metrics: { zz: g, aa: 1 },
      })),
    };
    await store.modelLog({ model_id: model.id, pieces: modelLogPieces(log) }, USER);
    await store.modelCheckpointCreate({ model_id: model.id, step, metrics: { loss: 1 / step, acc: 0.5 } }, USER);
  }

  // Deployment-wide keys (hashes only): copied, never exported.
  const keys = createApiKeyStore(db);
  const user = `user-${entity}`;
  if ((await keys.list({ username: user })).length === 0) {
    await keys.create({
      id: `weft_${entity.padEnd(12, 'x').slice(0, 12)}`,
      key_hash: `sha256:${'a'.repeat(64)}`,
      username: user,
      entities: [entity],
    });
  }
  return { floatObjectDigest: float.digest, fileDigest: file.digest };
}
