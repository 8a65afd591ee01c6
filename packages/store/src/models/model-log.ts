// POST /v1/preview/models/{id}/log, fed piece by piece: the one implementation of the trajectory
// log (model-log-rows.ts hands an in-memory body over as pieces too). No more than one trajectory and
// one chunk of rows is ever held. The HTTP layer validates each piece before handing it over.
//
// Still ONE transaction: it is opened before the first piece and committed only after the `end`
// piece and the end of the stream; an error from the stream (invalid body, client gone) or from a
// statement rolls everything back. Rows reference their parents (groups → log, trajectories →
// group), but a group's own fields and the log's split and metrics are only known after its
// children, so parents are written first with placeholder data and completed once known. Each
// trajectory's content is its row of the log's table (trajectory-table.ts), written with its
// chunk; the table's list and digest follow the last row.
import { uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import { jsonText, jsonTextAsWritten, nowIso, type Db } from '../db/index.ts';
import { defaultChunkLimits, type ChunkLimits } from './chunks.ts';
import { LogMetrics } from './log-metrics.ts';
import { groupRow, trajectoryRows, type Values } from './model-log-rows.ts';
import type { TrajectoryContent } from './trajectory-table.ts';
import { analyzeAfterCreate } from '../tables/row-values.ts';
import { storeTrajectoryTable } from './trajectory-table.ts';
import { attachLogMetrics, currentStep } from './checkpoints.ts';
import { findModel } from './model-read.ts';
import type { ModelLogPiece } from '../store.ts';

export type { ModelLogPiece };

export interface ModelLogStreamReq {
  model_id: string;
  pieces: AsyncIterable<ModelLogPiece>;
}

/** Rows waiting for one multi-row INSERT, within ChunkLimits. */
class PendingRows<R> {
  rows: R[] = [];
  private bytes = 0;
  constructor(private readonly limits: ChunkLimits) {}
  /** True when `bytes` more would not fit: flush first. */
  full(bytes: number): boolean {
    return this.rows.length > 0 && (this.rows.length >= this.limits.maxRows || this.bytes + bytes > this.limits.maxBytes);
  }
  add(row: R, bytes: number): void {
    this.rows.push(row);
    this.bytes += bytes;
  }
  take(): R[] {
    const rows = this.rows;
    this.rows = [];
    this.bytes = 0;
    return rows;
  }
}

export async function modelLog(
  db: Db,
  req: ModelLogStreamReq,
  limits: ChunkLimits = defaultChunkLimits(db.dialect),
): Promise<T.ModelLogRes> {
  const model = await findModel(db, req.model_id);
  const log_id = uuidv7();
  const project_id = model.project_id;
  const metrics = new LogMetrics();
  const placeholder = () => jsonText(db, '{}');

  const answer = await db.kysely.transaction().execute(async (trx) => {
    const step = await currentStep(trx, project_id, model.id);
    await trx
      .insertInto('trajectory_logs')
      .values({
        project_id,
        id: log_id,
        model_id: model.id,
        split: '',
        step,
        created_at: nowIso(),
        metrics: placeholder(),
        group_count: 0,
        trajectory_count: 0,
      })
      .execute();

    const groups = new PendingRows<Values<'trajectory_groups'>>(limits);
    const trajectories = new PendingRows<Omit<Values<'trajectories'>, 'row_digest'>>(limits);
    let contents: TrajectoryContent[] = []; // the pending trajectories' table rows
    const rowDigests: string[] = [];
    // One chunk's INSERTs run while the next chunk is parsed and encoded: on PostgreSQL the
    // database works beside this thread (on SQLite each statement runs when issued anyway). At
    // most one chunk is in flight; `written()` waits for it, and is awaited before anything that
    // must see its rows, and before commit.
    let inFlight: Promise<void> = Promise.resolve();
    const written = () => inFlight;
    const write = async (run: () => Promise<void>) => {
      await inFlight;
      inFlight = run();
      // Awaited by the next write or written(); a log that fails first must not leave it unhandled.
      inFlight.catch(() => undefined);
    };
    const insertGroups = (rows: Values<'trajectory_groups'>[]) => trx.insertInto('trajectory_groups').values(rows).execute();
    const flushGroups = async () => {
      if (groups.rows.length === 0) return;
      const rows = groups.take();
      await write(async () => {
        await insertGroups(rows);
      });
    };
    // A trajectory's group row must exist before the trajectory's INSERT: statements run in the
    // order they are issued.
    const flushTrajectories = async () => {
      await flushGroups();
      if (trajectories.rows.length === 0) return;
      const pending = contents;
      const rows = trajectories.take();
      contents = [];
      // Digested (and for SQLite reordered) on their own thread while the next were parsed.
      const stored = await Promise.all(pending.map((c) => c.stored));
      const digests = stored.map((s) => s.digest);
      rowDigests.push(...digests);
      const values = stored.map((s) => ({ project_id, digest: s.digest, val: jsonTextAsWritten(db, s.text) }));
      const index = rows.map((r, i) => ({ ...r, row_digest: digests[i]! }));
      await write(async () => {
        // Bound as parameters, as the index rows are (/table/create binds its rows too, in
        // statements of a power-of-two count: table-rows-insert.ts).
        await trx
          .insertInto('rows')
          .values(values)
          .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing())
          .execute();
        await trx.insertInto('trajectories').values(index).execute();
      });
    };

    let groupCount = 0;
    let trajectoryCount = 0;
    let inGroup = 0; // trajectories of the current group so far
    let split: string | undefined;
    for await (const piece of req.pieces) {
      if (split !== undefined) throw new Error('model log: a piece after the end');
      if (piece.kind === 'end') {
        split = piece.split;
      } else if (piece.kind === 'trajectory') {
        if (piece.group_index !== groupCount || piece.trajectory_index !== inGroup) throw new Error('model log: a trajectory out of order');
        metrics.addTrajectory(piece.trajectory, groupCount, inGroup);
        if (inGroup === 0) {
          if (groups.full(2)) await flushGroups();
          groups.add({ project_id, log_id, group_index: groupCount, data: placeholder() }, 2);
        }
        const row = trajectoryRows(db.dialect, project_id, log_id, groupCount, inGroup, piece.trajectory);
        if (trajectories.full(row.content.chars)) await flushTrajectories();
        trajectories.add(row.index, row.content.chars);
        contents.push(row.content);
        inGroup += 1;
        trajectoryCount += 1;
      } else {
        if (piece.group_index !== groupCount) throw new Error('model log: a group out of order');
        metrics.endGroup(piece.group, groupCount, inGroup);
        const row = groupRow(db.dialect, project_id, log_id, groupCount, piece.group);
        const waiting = groups.rows.findIndex((r) => r.group_index === groupCount);
        if (waiting >= 0) {
          groups.rows[waiting] = row.row;
        } else if (inGroup > 0) {
          await written();
          await trx
            .updateTable('trajectory_groups')
            .set({ data: row.row.data })
            .where('project_id', '=', project_id)
            .where('log_id', '=', log_id)
            .where('group_index', '=', groupCount)
            .execute();
        } else {
          if (groups.full(row.bytes)) await flushGroups();
          groups.add(row.row, row.bytes);
        }
        groupCount += 1;
        inGroup = 0;
      }
    }
    if (split === undefined) throw new Error('model log: the body ended before it was complete');
    await flushTrajectories();
    await written();
    const table_digest = await storeTrajectoryTable(trx, db, project_id, rowDigests);

    const result = metrics.result(split);
    await trx
      .updateTable('trajectory_logs')
      .set({
        split,
        metrics: jsonText(db, JSON.stringify(result)),
        sums: jsonText(db, JSON.stringify(metrics.sums())),
        group_count: groupCount,
        trajectory_count: trajectoryCount,
        table_digest,
        created_at: nowIso(),
      })
      .where('project_id', '=', project_id)
      .where('id', '=', log_id)
      .execute();
    await attachLogMetrics(trx, db, project_id, model.id, step, result);
    return { log_id, step, trajectory_count: trajectoryCount, metrics: result, table_digest };
  });
  await analyzeAfterCreate(db, answer.trajectory_count);
  return answer;
}
