// The trajectory log's rows (groupRow, trajectoryRows) and, for a body already in memory (direct
// store users and tests), the same pieces the HTTP layer makes (modelLogPieces), so the store's
// one modelLog (model-log.ts) keeps one set of rules for defaults, metrics and storage:
// one transaction per request, nothing stored on any error, every request a new log (ART never
// retries /log, so a resent batch is a user re-run and is kept).
//
// The step is the model's latest checkpoint step, or 0 without checkpoints (ART's get_step()),
// and the log's aggregates are added to that checkpoint's metrics (checkpoints.ts).
import type * as T from '@weft/types';
import { jsonText, type Dialect, type NewRow } from '../db/index.ts';
import type { SizedRow } from './chunks.ts';
import type { ModelLogPiece } from '../store.ts';
import { normaliseGroup, trajectoriesOf } from './normalise-trajectories.ts';
import { trajectoryTableRow, type TrajectoryContent } from './trajectory-table.ts';

type Json = Record<string, unknown>;

/** An in-memory log body as the pieces the store's modelLog takes, in document order. */
export async function* modelLogPieces(req: T.ModelLogReq): AsyncGenerator<ModelLogPiece> {
  for (const [group_index, group] of (req.trajectory_groups as unknown as Json[]).entries()) {
    for (const [trajectory_index, trajectory] of trajectoriesOf(group).entries()) {
      yield { kind: 'trajectory', group_index, trajectory_index, trajectory };
    }
    yield { kind: 'group', group_index, group };
  }
  yield { kind: 'end', split: req.split };
}

export type Values<T extends 'trajectory_groups' | 'trajectories'> = Omit<NewRow<T>, 'data'> & { data: ReturnType<typeof jsonText> };

/** The stored row of a group (normalised, without its trajectories). */
export function groupRow(
  dialect: Dialect,
  project_id: string,
  log_id: string,
  group_index: number,
  group: Json,
): SizedRow<Values<'trajectory_groups'>> {
  const text = JSON.stringify(normaliseGroup(group));
  return { row: { project_id, log_id, group_index, data: jsonText(dialect, text) }, bytes: text.length };
}

/**
 * The stored rows of a trajectory: its row in the log's table (the content, see
 * trajectory-table.ts) and its index row, which points at it once the content's digest is known.
 */
export function trajectoryRows(
  dialect: Dialect,
  project_id: string,
  log_id: string,
  group_index: number,
  trajectory_index: number,
  trajectory: Json,
): { index: Omit<Values<'trajectories'>, 'row_digest'>; content: TrajectoryContent } {
  const content = trajectoryTableRow(group_index, trajectory_index, trajectory);
  return {
    index: {
      project_id,
      log_id,
      group_index,
      trajectory_index,
      reward: content.reward,
      data: jsonText(dialect, 'null'),
    },
    content,
  };
}
