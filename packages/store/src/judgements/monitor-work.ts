// The monitors' side of the store (not operations: apps/server/src/judges/monitor-scan.ts calls
// them): the live Monitor objects of every project (objects_monitors_idx), each monitor's cursor,
// and one step of a monitor, whose judgements and new cursor are written in one transaction, so a
// restart resumes at the cursor and never queues a call twice (judgements_once_key).
import { readMonitor, type Monitor } from '@weft/core';
import { sql } from 'kysely';
import { readJson, type Db } from '../db/index.ts';
import { tryExclusive } from '../db/lock.ts';
import { insertJudgements } from './judgement-rows.ts';

export interface LiveMonitor {
  project_id: string;
  name: string;
  /** The version's ref: what its judgements' feedback names as trigger_ref. */
  ref: string;
  /** When this version was published: where a monitor with no cursor starts. */
  created_at: string;
  created_by: string | null;
  monitor: Monitor | { error: string };
}

export async function liveMonitors(db: Db): Promise<LiveMonitor[]> {
  const rows = await db.kysely
    .selectFrom('objects')
    .select(['project_id', 'object_id', 'digest', 'val', 'created_at', 'svc_user_id'])
    // The predicate of objects_monitors_idx, as written there.
    .where(sql<boolean>`base_object_class = 'Monitor' and is_latest = 1 and deleted_at is null`)
    .execute();
  return rows.map((r) => ({
    project_id: r.project_id,
    name: r.object_id,
    ref: `weave:///${r.project_id}/object/${r.object_id}:${r.digest}`,
    created_at: r.created_at,
    created_by: r.svc_user_id,
    monitor: readMonitor(readJson(db, r.val)),
  }));
}

export async function monitorCursor(db: Db, projectId: string, name: string): Promise<string | undefined> {
  const row = await db.kysely
    .selectFrom('monitor_cursors')
    .select('started_at')
    .where('project_id', '=', projectId)
    .where('monitor', '=', name)
    .executeTakeFirst();
  return row?.started_at;
}

export interface MonitorStep {
  monitor: LiveMonitor;
  /** Calls the monitor chose (ended and sampled). */
  callIds: readonly string[];
  scorers: readonly string[];
  /** Where the next step starts. */
  cursor: string;
  requestedBy: string;
}

/** Queues the step's judgements and moves the cursor, together; answers how many were new. */
export async function recordMonitorStep(db: Db, step: MonitorStep): Promise<number> {
  const { monitor } = step;
  const now = new Date().toISOString();
  const rows = step.callIds.flatMap((call_id) =>
    step.scorers.map((scorer_ref) => ({
      project_id: monitor.project_id,
      source_key: `monitor:${monitor.name}`,
      monitor_ref: monitor.ref,
      scorer_ref,
      call_id,
      requested_by: step.requestedBy,
    })),
  );
  return db.kysely.transaction().execute(async (tx) => {
    const queued = await insertJudgements(tx, rows, now);
    await tx
      .insertInto('monitor_cursors')
      .values({ project_id: monitor.project_id, monitor: monitor.name, started_at: step.cursor, updated_at: now })
      .onConflict((oc) => oc.columns(['project_id', 'monitor']).doUpdateSet({ started_at: step.cursor, updated_at: now }))
      .execute();
    return queued;
  });
}

/** Runs `fn` unless another replica is scanning the monitors (then undefined, without waiting). */
export function onMonitorScanLock<T>(db: Db, fn: () => Promise<T>): Promise<T | undefined> {
  return tryExclusive(db, 'weft:monitor-scan', () => fn());
}
