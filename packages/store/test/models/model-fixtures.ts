// Shared builders for the model tests.
import { loadCatalogue } from '@weft/core';
import type * as T from '@weft/types';
import { readJson, type Db } from '../../src/db/index.ts';
import { modelMethods } from '../../src/models/index.ts';
import { modelLogPieces } from '../../src/models/model-log-rows.ts';
import type { StoreInput } from '../../src/store.ts';

const catalogue = await loadCatalogue();
export const ctx = { user: 'alice' };

export function modelsOf(db: Db) {
  return modelMethods({ db, catalogue });
}

export function createReq(fields: Partial<T.ModelCreateReq & { entity: string }> = {}): T.ModelCreateReq & { entity: string } {
  return {
    entity: 'acme',
    project: 'agents',
    name: 'email-agent',
    base_model: 'OpenPipe/Qwen3-14B-Instruct',
    return_existing: true,
    ...fields,
  };
}

/** Loosely typed log request: trajectories are free-form JSON. */
/** A log request as the store takes it: the body as pieces (re-iterable, so a request can be sent twice). */
export function logReq(model_id: string, split: string, trajectory_groups: unknown[]): StoreInput<'modelLog'> {
  const body: T.ModelLogReq = { split, trajectory_groups: trajectory_groups as T.TrajectoryGroup[] };
  return { model_id, pieces: { [Symbol.asyncIterator]: () => modelLogPieces(body) } };
}

/** What a stored trajectory holds for every ART field the client left out (written out, not computed). */
export const TRAJECTORY_DEFAULTS = {
  messages_and_choices: [],
  tools: null,
  additional_histories: [],
  reward: 0,
  initial_policy_version: null,
  final_policy_version: null,
  metrics: {},
  metadata: {},
  logs: [],
};

/**
 * Everything stored for one log, in key order; each trajectory's `data` is its content (its row
 * of the log's table), without the position keys, which must match its index row.
 */
export async function storedLog(db: Db, logId: string) {
  const log = await db.kysely.selectFrom('trajectory_logs').selectAll().where('id', '=', logId).executeTakeFirstOrThrow();
  const groups = await db.kysely.selectFrom('trajectory_groups').selectAll().where('log_id', '=', logId).orderBy('group_index').execute();
  const trajectories = await db.kysely
    .selectFrom('trajectories as t')
    .leftJoin('rows as r', (join) => join.onRef('r.project_id', '=', 't.project_id').onRef('r.digest', '=', 't.row_digest'))
    .selectAll('t')
    .select('r.val')
    .where('t.log_id', '=', logId)
    .orderBy('t.group_index')
    .orderBy('t.trajectory_index')
    .execute();
  return {
    log: { ...log, metrics: readJson(db, log.metrics) },
    groups: groups.map((g) => ({ ...g, data: readJson(db, g.data) })),
    trajectories: trajectories.map(({ val, ...t }) => {
      if (t.row_digest === null) return { ...t, data: readJson(db, t.data) };
      if (readJson(db, t.data) !== null) throw new Error('a trajectory with a row keeps no data of its own');
      const { group_index, trajectory_index, ...content } = readJson(db, val) as Record<string, unknown>;
      if (group_index !== t.group_index || trajectory_index !== t.trajectory_index) throw new Error('row position differs from the index');
      return { ...t, data: content };
    }),
  };
}
