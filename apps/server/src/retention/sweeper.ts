// The retention sweeper: every RETENTION_SWEEP_INTERVAL, one sweep of the store's retention
// (@weft/store's sweepExpired: expired calls with their feedback, then files nothing references
// any more), counted in the metrics and logged when it deleted something. Sweeps never overlap
// (the next is scheduled when one ends); with several replicas on one PostgreSQL, one replica
// sweeps a round and the others skip it. stop() lets the running batch commit, ends the sweep
// there and waits for it, so the server closes the database only after.
import type { Logger } from 'pino';
import { sweepExpired, type Db, type SweepCounts } from '@weft/store';

export interface SweeperOptions {
  /** 0: no sweeper. */
  intervalMs: number;
  fileGraceMs: number;
  logger: Logger;
  /** Told what each batch deleted (the metrics' counters). */
  onBatch?: (deleted: SweepCounts) => void;
}

export interface Sweeper {
  stop(): Promise<void>;
  /** Nothing scheduled and nothing running: true once stop() has resolved, and always with an interval of 0. */
  readonly idle: boolean;
}

export function startSweeper(db: Db, opts: SweeperOptions): Sweeper {
  if (opts.intervalMs <= 0) return { stop: async () => {}, idle: true };
  let stopping = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const round = async () => {
    try {
      const started = performance.now();
      const res = await sweepExpired(db, {
        fileGraceMs: opts.fileGraceMs,
        shouldStop: () => stopping,
        ...(opts.onBatch ? { onBatch: opts.onBatch } : {}),
      });
      if (res.calls + res.feedback + res.files > 0) {
        const { calls, feedback, files } = res;
        opts.logger.info({ calls, feedback, files, ms: Math.round(performance.now() - started) }, 'retention sweep deleted expired data');
      }
    } catch (err) {
      // A failed round (the database away for a moment) is retried at the next one.
      opts.logger.error({ err }, 'retention sweep failed');
    }
  };
  const schedule = () => {
    if (stopping) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = round().finally(() => {
        running = undefined;
        schedule();
      });
    }, opts.intervalMs);
    // The sweeper alone never keeps the process alive.
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
    get idle() {
      return timer === undefined && running === undefined;
    },
  };
}
