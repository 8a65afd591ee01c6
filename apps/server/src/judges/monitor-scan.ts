// One look of every active monitor at its project's new calls. A monitor keeps a cursor (the
// started_at it has read up to). Each step reads the next calls of its ops that pass its query,
// started at or after the cursor, oldest first; picks those its sampling rate chooses (the same
// choice for the same call every time: sampledForMonitor), and queues one judgement per chosen
// call and scorer together with the new cursor (recordMonitorStep), so a restart resumes where it
// stopped and never queues a call twice. A call still running is queued like the others; its judge
// waits for it to end (judges.ts). One replica scans at a time (PostgreSQL: an advisory lock).
import { sampledForMonitor, type Monitor } from '@weft/core';
import { liveMonitors, monitorCursor, onMonitorScanLock, recordMonitorStep, type Db, type LiveMonitor, type Store } from '@weft/store';
import type { Logger } from 'pino';

/** Calls one monitor reads per step. */
export const MONITOR_BATCH = 500;

export interface ScanDeps {
  db: Db;
  store: Store;
  logger: Logger;
}

/** Queued judgements of this look (undefined: another replica is looking). */
export async function scanMonitors(deps: ScanDeps): Promise<number | undefined> {
  return onMonitorScanLock(deps.db, async () => {
    let queued = 0;
    for (const live of await liveMonitors(deps.db)) {
      const { monitor } = live;
      if ('error' in monitor) {
        deps.logger.debug({ monitor: live.ref, why: monitor.error }, 'a Monitor object that cannot run is passed over');
        continue;
      }
      if (!monitor.active || monitor.scorers.length === 0) continue;
      try {
        queued += await stepMonitor(deps, live, monitor);
      } catch (err) {
        // One monitor's bad query (422 from the calls query) must not stop the others.
        deps.logger.warn({ monitor: live.ref, err }, 'a monitor could not read its calls');
      }
    }
    return queued;
  });
}

async function stepMonitor(deps: ScanDeps, live: LiveMonitor, monitor: Monitor): Promise<number> {
  const cursor = (await monitorCursor(deps.db, live.project_id, live.name)) ?? live.created_at;
  const since = { $gte: [{ $getField: 'started_at' }, { $literal: Date.parse(cursor) / 1000 }] };
  const own = monitor.query?.$expr;
  const query = { $expr: own ? { $and: [own, since] } : since };
  const { calls } = await deps.store.callsQuery(
    {
      project_id: live.project_id,
      ...(monitor.op_names.length ? { filter: { op_names: monitor.op_names } } : {}),
      query: query as never,
      sort_by: [{ field: 'started_at', direction: 'asc' }],
      limit: MONITOR_BATCH,
      columns: ['id', 'started_at'],
    },
    { user: live.created_by ?? 'weft', mayRead: (p) => p === live.project_id },
  );
  if (calls.length === 0) return 0;
  const last = calls[calls.length - 1]!.started_at;
  // A whole batch that started in one millisecond would be read again and again: step past it.
  const next = calls.length === MONITOR_BATCH && last === cursor ? new Date(Date.parse(last) + 1).toISOString() : last;
  return recordMonitorStep(deps.db, {
    monitor: live,
    callIds: calls.filter((c) => sampledForMonitor(live.name, c.id, monitor.sampling_rate)).map((c) => c.id),
    scorers: monitor.scorers,
    cursor: next,
    requestedBy: live.created_by ?? 'weft',
  });
}
