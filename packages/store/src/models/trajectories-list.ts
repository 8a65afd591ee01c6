// GET /v1/preview/models/{id}/trajectories: a model's trajectories read back, by step, then log
// (uuidv7 ids: the order they were logged), group and position, cursor-paged as checkpoints are.
//
// A page costs its own rows whatever the cursor's depth: the cursor's log is finished first (a
// range of its primary key), then the logs after it are walked in index order
// (trajectory_logs_model_step_idx) until the page is full. Contents are read by digest from the
// log's table; the reads go through db.readLong, since a page of trajectories with logprobs can
// be many megabytes (off the main thread on SQLite).
import { mapInTurns, notFound } from '@weft/core';
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { readJson, type Db, type Row } from '../db/index.ts';
import { findModel } from './model-read.ts';

export interface TrajectoriesListReq {
  model_id: string;
  split?: string;
  step?: number;
  after?: string;
  limit?: number;
  order?: 'asc' | 'desc';
}

interface IndexRow {
  log_id: string;
  split: string;
  step: number;
  table_digest: string | null;
  group_index: number;
  trajectory_index: number;
  row_digest: string | null;
  data: unknown;
}

const ID = /^([0-9a-f-]{36})\.(\d{1,9})\.(\d{1,9})$/;
const idOf = (r: Pick<IndexRow, 'log_id' | 'group_index' | 'trajectory_index'>) => `${r.log_id}.${r.group_index}.${r.trajectory_index}`;

export async function trajectoriesList(db: Db, req: TrajectoriesListReq): Promise<T.TrajectoryList> {
  const model = await findModel(db, req.model_id);
  const order = req.order ?? 'asc';
  const limit = req.limit ?? 20;
  const beyond = order === 'asc' ? '>' : '<';
  const want = limit + 1; // one more than the page: whether another page follows

  const base = () => {
    let q = db.kysely
      .selectFrom('trajectory_logs as l')
      .innerJoin('trajectories as t', (join) => join.onRef('t.project_id', '=', 'l.project_id').onRef('t.log_id', '=', 'l.id'))
      .select(['l.id as log_id', 'l.split', 'l.step', 'l.table_digest', 't.group_index', 't.trajectory_index', 't.row_digest', 't.data'])
      .where('l.project_id', '=', model.project_id)
      .where('l.model_id', '=', model.id);
    if (req.split !== undefined) q = q.where('l.split', '=', req.split);
    if (req.step !== undefined) q = q.where('l.step', '=', req.step);
    return q.orderBy('l.step', order).orderBy('l.id', order).orderBy('t.group_index', order).orderBy('t.trajectory_index', order);
  };

  const rows: IndexRow[] = [];
  let rest = base();
  if (req.after !== undefined) {
    const cursor = await findCursor(db, model, req.after);
    // The rest of the cursor's log, then the logs beyond it.
    rows.push(
      ...(await db.readLong<IndexRow>(
        base()
          .where('l.id', '=', cursor.log_id)
          .where(sql<boolean>`(t.group_index, t.trajectory_index) ${sql.raw(beyond)} (${cursor.group_index}, ${cursor.trajectory_index})`)
          .limit(want)
          .compile(),
      )),
    );
    rest = rest.where(sql<boolean>`(l.step, l.id) ${sql.raw(beyond)} (${cursor.step}, ${cursor.log_id})`);
  }
  if (rows.length < want) rows.push(...(await db.readLong<IndexRow>(rest.limit(want - rows.length).compile())));

  const page = rows.slice(0, limit);
  const contents = await readContents(db, model.project_id, page);
  const data = await mapInTurns(page, (r): T.TrajectoryRecord => {
    const stored = r.row_digest === null ? readJson(db, r.data) : contents.get(r.row_digest);
    if (stored === undefined) throw new Error(`trajectory ${idOf(r)}: row ${r.row_digest} is missing`);
    // Logs stored before their tables existed hold the trajectory alone: add its position.
    const trajectory = { ...(stored as Record<string, unknown>), group_index: r.group_index, trajectory_index: r.trajectory_index };
    return {
      id: idOf(r),
      log_id: r.log_id,
      split: r.split,
      step: r.step,
      table_digest: r.table_digest,
      row_digest: r.row_digest,
      trajectory: trajectory as T.StoredTrajectory,
    };
  });
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > limit };
}

/** The trajectory an `after` names, with its log's step; 404 when the model has none such. */
async function findCursor(db: Db, model: Row<'models'>, after: string) {
  const match = ID.exec(after);
  const cursor = match
    ? await db.kysely
        .selectFrom('trajectory_logs as l')
        .innerJoin('trajectories as t', (join) => join.onRef('t.project_id', '=', 'l.project_id').onRef('t.log_id', '=', 'l.id'))
        .select(['l.id as log_id', 'l.step', 't.group_index', 't.trajectory_index'])
        .where('l.project_id', '=', model.project_id)
        .where('l.model_id', '=', model.id)
        .where('l.id', '=', match[1]!)
        .where('t.group_index', '=', Number(match[2]))
        .where('t.trajectory_index', '=', Number(match[3]))
        .executeTakeFirst()
    : undefined;
  if (!cursor) throw notFound(`Trajectory ${after} of model ${model.id} not found`);
  return cursor;
}

async function readContents(db: Db, projectId: string, page: readonly IndexRow[]): Promise<Map<string, unknown>> {
  const digests = [...new Set(page.flatMap((r) => (r.row_digest === null ? [] : [r.row_digest])))];
  if (digests.length === 0) return new Map();
  const rows = await db.readLong<{ digest: string; val: unknown }>(
    db.kysely.selectFrom('rows').select(['digest', 'val']).where('project_id', '=', projectId).where('digest', 'in', digests).compile(),
  );
  const byDigest = new Map<string, unknown>();
  await mapInTurns(rows, (r) => byDigest.set(r.digest, readJson(db, r.val)));
  return byDigest;
}
