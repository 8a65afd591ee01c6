// The reads of eval_results/query: the evaluations' root calls, their predict-and-score calls
// (the trials) with only what grouping, sorting and the summary need, and for one page the
// trials' outputs and child calls. Each filters by project first and walks calls_parent_idx
// (project_id, parent_id) or the primary key; the read of every trial runs on SQLite's reader
// thread (db.readLong), so ten thousand examples never hold the event loop.
import { jsonPathExtract, maxBindParameters, readJson, type Db } from '../db/index.ts';

export interface EvalRoot {
  id: string;
  evaluation_ref: unknown;
  model_ref: unknown;
  display_name: string | null;
  trace_id: string | null;
  started_at: string | null;
}

/** One predict-and-score call: its example and scores (parsed), no output. */
export interface TrialKey {
  id: string;
  evaluationId: string;
  startedAt: string | null;
  example: unknown;
  scores: unknown;
}

export interface TrialDetail {
  id: string;
  output: unknown;
  modelRef: unknown;
}

export interface ChildCall {
  id: string;
  parentId: string;
  opName: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** `attributes.weave.score` (Weave's V2 score marker). */
  weaveScore: unknown;
  /** `attributes._weave_eval_meta.score` (EvaluationLogger's score marker). */
  metaScore: unknown;
  inputSelf: unknown;
  usage: unknown;
}

/** The op names of a predict-and-score call: the Python SDK's and the TypeScript SDK's. */
const TRIAL_OPS = new Set(['Evaluation.predict_and_score', 'Evaluation.predictAndScore']);

/** The op's name in an op_name (`weave:///e/p/op/<name>:<digest>`, or a bare name). */
export function opNameOf(opName: string | null): string {
  if (opName === null) return '';
  const at = opName.lastIndexOf('/op/');
  const name = at < 0 ? opName : opName.slice(at + 4);
  const colon = name.lastIndexOf(':');
  return colon < 0 ? name : name.slice(0, colon);
}

/** `items` in slices that fit the database's bind parameters (with room for the others). */
function slices<T>(db: Db, items: readonly T[]): T[][] {
  const size = Math.min(10_000, maxBindParameters(db) - 10);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function readEvalRoots(db: Db, projectId: string, ids: readonly string[]): Promise<Map<string, EvalRoot>> {
  const rows = await db.kysely
    .selectFrom('calls')
    .select([
      'id',
      'display_name',
      'trace_id',
      'started_at',
      jsonPathExtract(db, 'inputs', ['self']).as('self'),
      jsonPathExtract(db, 'inputs', ['model']).as('model'),
    ])
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        evaluation_ref: readJson(db, r.self),
        model_ref: readJson(db, r.model),
        display_name: r.display_name,
        trace_id: r.trace_id,
        started_at: r.started_at,
      },
    ]),
  );
}

interface TrialKeyRow {
  id: string;
  parent_id: string;
  op_name: string | null;
  started_at: string | null;
  example: unknown;
  scores: unknown;
}

/**
 * The statement reading the trials' keys. No ORDER BY: ordered by start, SQLite would rather walk
 * calls_started_idx over the whole project than sort; the few trials of one row are sorted in JS.
 */
export function trialKeysQuery(db: Db, projectId: string, evaluationIds: readonly string[]) {
  return db.kysely
    .selectFrom('calls')
    .select([
      'id',
      'parent_id',
      'op_name',
      'started_at',
      jsonPathExtract(db, 'inputs', ['example']).as('example'),
      jsonPathExtract(db, 'output', ['scores']).as('scores'),
    ])
    .where('project_id', '=', projectId)
    .where('parent_id', 'in', evaluationIds)
    .where('deleted_at', 'is', null);
}

/** Every live predict-and-score call under the evaluations. */
export async function readTrialKeys(db: Db, projectId: string, evaluationIds: readonly string[]): Promise<TrialKeyRow[]> {
  if (evaluationIds.length === 0) return [];
  const rows = await db.readLong<TrialKeyRow>(trialKeysQuery(db, projectId, evaluationIds).compile());
  return rows.filter((r) => TRIAL_OPS.has(opNameOf(r.op_name)));
}

/** A trial key row with its JSON read (the caller gives the event loop turns between rows). */
export function toTrialKey(db: Db, r: TrialKeyRow): TrialKey {
  return { id: r.id, evaluationId: r.parent_id, startedAt: r.started_at, example: readJson(db, r.example), scores: readJson(db, r.scores) };
}

export async function readTrialDetails(db: Db, projectId: string, ids: readonly string[]): Promise<Map<string, TrialDetail>> {
  const out = new Map<string, TrialDetail>();
  for (const slice of slices(db, ids)) {
    const rows = await db.kysely
      .selectFrom('calls')
      .select(['id', 'output', jsonPathExtract(db, 'inputs', ['model']).as('model')])
      .where('project_id', '=', projectId)
      .where('id', 'in', slice)
      .execute();
    for (const r of rows) out.set(r.id, { id: r.id, output: readJson(db, r.output), modelRef: readJson(db, r.model) });
  }
  return out;
}

/** The statement reading one slice of child calls (no ORDER BY, as trialKeysQuery: sorted in JS). */
export function childCallsQuery(db: Db, projectId: string, parentIds: readonly string[]) {
  return db.kysely
    .selectFrom('calls')
    .select([
      'id',
      'parent_id',
      'op_name',
      'started_at',
      'ended_at',
      jsonPathExtract(db, 'attributes', ['weave', 'score']).as('weave_score'),
      jsonPathExtract(db, 'attributes', ['_weave_eval_meta', 'score']).as('meta_score'),
      jsonPathExtract(db, 'inputs', ['self']).as('input_self'),
      jsonPathExtract(db, 'summary', ['usage']).as('usage'),
    ])
    .where('project_id', '=', projectId)
    .where('parent_id', 'in', parentIds)
    .where('deleted_at', 'is', null);
}

/** By start, then id (a call not started yet last). */
export function byStart<C extends { startedAt: string | null; id: string }>(a: C, b: C): number {
  if (a.startedAt !== b.startedAt) {
    if (a.startedAt === null) return 1;
    if (b.startedAt === null) return -1;
    return a.startedAt < b.startedAt ? -1 : 1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export async function readChildCalls(db: Db, projectId: string, parentIds: readonly string[]): Promise<Map<string, ChildCall[]>> {
  const out = new Map<string, ChildCall[]>();
  for (const slice of slices(db, parentIds)) {
    const rows = await childCallsQuery(db, projectId, slice).execute();
    for (const r of rows) {
      const child: ChildCall = {
        id: r.id,
        parentId: r.parent_id!,
        opName: r.op_name,
        startedAt: r.started_at,
        endedAt: r.ended_at,
        weaveScore: readJson(db, r.weave_score),
        metaScore: readJson(db, r.meta_score),
        inputSelf: readJson(db, r.input_self),
        usage: readJson(db, r.usage),
      };
      const list = out.get(child.parentId);
      if (list) list.push(child);
      else out.set(child.parentId, [child]);
    }
  }
  for (const list of out.values()) if (list.length > 1) list.sort(byStart);
  return out;
}
