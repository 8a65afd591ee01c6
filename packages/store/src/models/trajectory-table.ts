// A log's trajectories as a content-addressed table, as /table/create would store it: one row per
// trajectory in the order sent, each `{group_index, trajectory_index, ...the trajectory with its
// defaults}`, so /table/query reads, sorts (`reward`, `metrics.<name>`) and pages a log like any
// table. The row holds the trajectory's only copy; the `trajectories` index row points at it.
//
// The position is part of each row, so a row's digest names one position of its content: two
// logs writing the same rows at once (a resent batch) write them in the same order and cannot
// deadlock on PostgreSQL's row locks, without sorting by digest as /table/create does.
import { invalidField, parsedTextDigest, tableDigest } from '@weft/core';
import type { Transaction } from 'kysely';
import { nowIso, type Database, type Db } from '../db/index.ts';
import { storableJsonOfParsed } from '../objects/value-encoding.ts';
import { insertRowList } from '../tables/table-rows-insert.ts';
import { normaliseTrajectory } from './normalise-trajectories.ts';

type Json = Record<string, unknown>;

const POSITION_KEYS = ['group_index', 'trajectory_index'] as const;

/** A trajectory's table row: its size and reward now, its digest and stored text to come. */
export interface TrajectoryContent {
  /** Characters of its JSON text, for the chunk limits. */
  chars: number;
  reward: number;
  /** Made off the main thread (digest-thread.ts in @weft/core). */
  stored: Promise<{ digest: string; text: string }>;
}

/** The table row of a trajectory, encoded (stored text, and its digest under way). */
export function trajectoryTableRow(group_index: number, trajectory_index: number, trajectory: Json): TrajectoryContent {
  // The spec refuses these keys (HTTP); this guards direct store users, whose key would be lost.
  for (const key of POSITION_KEYS) {
    if (Object.hasOwn(trajectory, key)) {
      throw invalidField(
        ['body', 'trajectory_groups', String(group_index), 'trajectories', String(trajectory_index), key],
        `${key} is Weft's own field`,
      );
    }
  }
  const row: Json = { ...normaliseTrajectory(trajectory), group_index, trajectory_index };
  // JSON.stringify's text, stored as it is in both databases: the trajectory's keys in the order
  // sent. The digest is worked out on the digest thread.
  const text = storableJsonOfParsed(row);
  const stored = parsedTextDigest(text).then(({ digest }) => ({ digest, text }));
  // Awaited when its chunk is written; a log that fails before must not leave it unhandled.
  stored.catch(() => undefined);
  return { chars: text.length, reward: row.reward as number, stored };
}

/** Records the table of a log's rows (already inserted) once; returns its digest. */
export async function storeTrajectoryTable(
  trx: Transaction<Database>,
  db: Db,
  project_id: string,
  rowDigests: readonly string[],
): Promise<string> {
  const digest = tableDigest(rowDigests);
  // The same trajectories logged again make the same table: stored once, as /table/create does.
  const created = await trx
    .insertInto('tables')
    .values({ project_id, digest, row_count: rowDigests.length, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing())
    .returning('digest')
    .executeTakeFirst();
  if (created) await insertRowList(trx, db, project_id, digest, rowDigests);
  return digest;
}
