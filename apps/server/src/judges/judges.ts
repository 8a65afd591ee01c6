// The judges of a running server: up to `concurrency` judgements at once, claimed from the
// judgements table (any replica may claim any project's; a claim lapses if its judge dies, and
// another takes it over), and the monitors' scan every `scanMs`. Both loops never overlap
// themselves and never keep the process alive. stop() stops claiming, aborts the requests in
// flight (their judgements go back to the queue, settled while the database is still open) and
// waits for them, before the server closes the store.
import type { Logger } from 'pino';
import { claimJudgements, settleJudgement, type ClaimedJudgement, type Db } from '@weft/store';
import { judgeOne, type JudgeDeps, type JudgeOptions } from './judge-one.ts';
import { scanMonitors } from './monitor-scan.ts';

export interface JudgesOptions {
  /** 0: no judging here. */
  concurrency: number;
  pollMs: number;
  /** 0: no monitor scan here. */
  scanMs: number;
  logger: Logger;
  /** How long a claim holds before another judge may take the judgement over. */
  leaseMs?: number;
  judge?: Partial<JudgeOptions>;
  /** Told each settled judgement (tests, metrics). */
  onSettled?: (held: ClaimedJudgement, state: string) => void;
}

export interface Judges {
  stop(): Promise<void>;
  /** Looks for work now (after calls/score queued some). */
  nudge(): void;
}

const DEFAULT_JUDGE: JudgeOptions = {
  maxAttempts: 4,
  // 2 s, 4 s, 8 s… with jitter, at most 5 minutes.
  backoffMs: (attempt) => Math.min(300_000, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2),
  timeoutMs: 120_000,
  waitMs: 5_000,
  maxRunningMs: 3_600_000,
};

export function startJudges(deps: JudgeDeps & { db: Db }, opts: JudgesOptions): Judges {
  const logger = opts.logger.child({ component: 'judges' });
  const judge = { ...DEFAULT_JUDGE, ...opts.judge };
  const leaseMs = opts.leaseMs ?? judge.timeoutMs + 60_000;
  const inFlight = new Set<Promise<void>>();
  const aborts = new Set<AbortController>();
  let stopping = false;
  let polling: Promise<void> | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let scanning: Promise<void> | undefined;
  let scanTimer: NodeJS.Timeout | undefined;

  const run = (held: ClaimedJudgement) => {
    const abort = new AbortController();
    aborts.add(abort);
    const done = (async () => {
      try {
        const outcome = await judgeOne(deps, held, { ...judge, signal: abort.signal });
        const kept = await settleJudgement(deps.db, held, outcome);
        if (!kept) logger.warn({ judgement: held.id }, 'a judgement was taken over by another judge before it was settled');
        else if (outcome.state === 'failed') logger.info({ judgement: held.id, why: outcome.error }, 'a judgement failed');
        opts.onSettled?.(held, outcome.state);
      } catch (err) {
        // The store away: the claim lapses and the judgement is taken again.
        logger.error({ judgement: held.id, err }, 'a judgement could not be settled; it is retried when its claim lapses');
      }
    })().finally(() => {
      aborts.delete(abort);
      inFlight.delete(done);
      nudge();
    });
    inFlight.add(done);
  };

  const poll = async () => {
    const free = opts.concurrency - inFlight.size;
    if (free <= 0 || stopping) return;
    try {
      for (const held of await claimJudgements(deps.db, { limit: free, leaseMs })) run(held);
    } catch (err) {
      logger.error({ err }, 'looking for judgements failed');
    }
  };
  const schedulePoll = (delay: number) => {
    if (stopping || opts.concurrency <= 0 || pollTimer) return;
    pollTimer = setTimeout(() => {
      pollTimer = undefined;
      if (polling) return schedulePoll(opts.pollMs);
      polling = poll().finally(() => {
        polling = undefined;
        schedulePoll(opts.pollMs);
      });
    }, delay);
    pollTimer.unref();
  };
  function nudge() {
    if (stopping || opts.concurrency <= 0) return;
    clearTimeout(pollTimer);
    pollTimer = undefined;
    schedulePoll(0);
  }

  const scheduleScan = () => {
    if (stopping || opts.scanMs <= 0) return;
    scanTimer = setTimeout(() => {
      scanTimer = undefined;
      scanning = scanMonitors({ db: deps.db, store: deps.store, logger })
        .then((queued) => {
          if (queued) {
            logger.info({ queued }, 'monitors queued judgements');
            nudge();
          }
        })
        .catch((err: unknown) => logger.error({ err }, 'the monitors could not look at new calls'))
        .finally(() => {
          scanning = undefined;
          scheduleScan();
        });
    }, opts.scanMs);
    scanTimer.unref();
  };

  schedulePoll(0);
  scheduleScan();
  return {
    nudge,
    async stop() {
      stopping = true;
      clearTimeout(pollTimer);
      clearTimeout(scanTimer);
      for (const a of aborts) a.abort(new Error('the server is stopping'));
      await Promise.all([polling, scanning, ...inFlight]);
    },
  };
}
