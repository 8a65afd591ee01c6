// The retention sweep (not an API operation): deletes the calls whose expire_at has passed, with
// their feedback, then the files that only they referenced. Run periodically by the server
// (apps/server/src/retention/sweeper.ts), or by anyone holding a Db.
//
// Work goes in bounded batches, each one short transaction, with a turn for the event loop
// between them: on SQLite writes are synchronous on the main thread, so a batch is kept to about
// a hundred calls or a few MiB of values; everything that reads much runs through db.readLong.
// Concurrent writers are never blocked for long and never broken: a batch deletes only calls
// still expired when it runs, and files only while still unreferenced candidates (sweep-files.ts).
//
// Several replicas on one PostgreSQL: one sweeps at a time (a session advisory lock, tried
// without waiting; the others skip that round), all of its work on the one pooled connection
// that holds the lock. Every delete is also conditional and idempotent, so two sweeps that did
// overlap (a lock lost with its connection) would only repeat work.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../db/index.ts';
import { onExclusiveConnection, tryExclusive } from '../db/lock.ts';
import { batchesOf, deleteCallBatch, expiredCalls, projectsWithExpiringCalls } from './sweep-calls.ts';
import { projectsWithDueFiles, sweepProjectFiles } from './sweep-files.ts';

export interface SweepCounts {
  calls: number;
  feedback: number;
  files: number;
}

export interface SweepOptions {
  /** The sweep's clock (tests). Default: the system's. */
  now?: () => Date;
  /** Calls one batch deletes at most. Default 100. */
  batchCalls?: number;
  /** JSON bytes of calls (or bytes of files) one batch deletes at most; one item always fits. Default 4 MiB. */
  batchBytes?: number;
  /** Files one batch deletes at most. Default 100. */
  batchFiles?: number;
  /** How long a file an expired call referenced waits before it is checked and deleted. Default 1 h. */
  fileGraceMs?: number;
  /** Asked between batches: true ends the sweep there (shutdown). */
  shouldStop?: () => boolean;
  /** Told what each batch deleted, as it commits (metrics). */
  onBatch?: (deleted: SweepCounts) => void;
}

export interface SweepResult extends SweepCounts {
  /** Write transactions that deleted something or checked candidates. */
  batches: number;
  /** Another replica was sweeping: nothing was done. */
  skipped: boolean;
  /** Ended early by shouldStop. */
  stopped: boolean;
}

export const DEFAULT_FILE_GRACE_MS = 60 * 60 * 1000;
const SWEEP_LOCK = 'weft:retention-sweep';

export async function sweepExpired(db: Db, opts: SweepOptions = {}): Promise<SweepResult> {
  const result = await tryExclusive(db, SWEEP_LOCK, (kysely) => sweep(onExclusiveConnection(db, kysely), opts));
  return result ?? { calls: 0, feedback: 0, files: 0, batches: 0, skipped: true, stopped: false };
}

async function sweep(db: Db, opts: SweepOptions): Promise<SweepResult> {
  const clock = opts.now ?? (() => new Date());
  const at = clock();
  // Calls expired before the sweep began: a long sweep does not chase what expires meanwhile.
  const now = at.toISOString();
  const cutoff = new Date(at.getTime() - (opts.fileGraceMs ?? DEFAULT_FILE_GRACE_MS)).toISOString();
  const callLimits = { calls: opts.batchCalls ?? 100, bytes: opts.batchBytes ?? 4 * 1024 * 1024 };
  const fileLimits = { files: opts.batchFiles ?? 100, bytes: opts.batchBytes ?? 4 * 1024 * 1024 };
  const result: SweepResult = { calls: 0, feedback: 0, files: 0, batches: 0, skipped: false, stopped: false };
  const stop = () => {
    if (opts.shouldStop?.()) result.stopped = true;
    return result.stopped;
  };
  const done = async (deleted: SweepCounts) => {
    result.calls += deleted.calls;
    result.feedback += deleted.feedback;
    result.files += deleted.files;
    result.batches += 1;
    opts.onBatch?.(deleted);
    // A turn for the event loop (other requests, the writer's queue) between two transactions.
    await nextTurn();
  };

  for await (const projectId of projectsWithExpiringCalls(db)) {
    for (;;) {
      if (stop()) return result;
      const page = await expiredCalls(db, projectId, now);
      if (page.length === 0) break;
      let deletedInPage = 0;
      for (const batch of batchesOf(page, callLimits)) {
        if (stop()) return result;
        const ids = batch.map((c) => c.id);
        const deleted = await deleteCallBatch(db, projectId, ids, now, clock().toISOString());
        deletedInPage += deleted.calls;
        await done({ ...deleted, files: 0 });
      }
      // Every call of the page moved its expiry meanwhile: the next page would be the same.
      if (deletedInPage === 0) break;
    }
  }

  for (const projectId of await projectsWithDueFiles(db, cutoff)) {
    if (stop()) return result;
    for await (const files of sweepProjectFiles(db, projectId, cutoff, fileLimits)) {
      await done({ calls: 0, feedback: 0, files });
      if (stop()) return result;
    }
  }
  return result;
}
