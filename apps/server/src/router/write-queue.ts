// The router recorder's background writer: a bounded queue of call records, written in batches
// (one transaction each), one batch at a time, after the answer that queued them was handed over.
import { isWeftError } from '@weft/core';
import type * as T from '@weft/types';
import type { Logger } from 'pino';

/** One call's items (a start; or a start and its end), written together or not at all. */
export interface QueuedCall {
  /** Whom the store records as the writer (the request's principal). */
  user: string;
  projectId: string;
  items: T.CallUpsertBatchReq['batch'];
}

export interface WriteQueueOptions {
  write(user: string, batch: T.CallUpsertBatchReq['batch']): Promise<void>;
  logger: Logger;
  maxQueued: number;
  batchSize: number;
  /** Waits between tries of a failed batch, ms; after the last, the batch is dropped and logged. */
  retryDelaysMs?: readonly number[];
  /** How long the first record waits for others to share its transaction, ms. */
  lingerMs?: number;
}

// A database that is briefly away (a failover, a restart) is waited for; longer, records are given up.
const RETRY_DELAYS_MS = [100, 1_000, 5_000];
// A full queue or a failing store would otherwise log once per request.
const DROP_LOG_EVERY_MS = 10_000;
// Under load, records arriving within this time share one transaction (one commit, one fsync on
// SQLite, where the commit holds the event loop while the disk syncs) instead of one each; the
// answer never waits for it. It widens the window of records a crash can lose by as much
// (README: "When the process dies").
const LINGER_MS = 100;

export class WriteQueue {
  private readonly queue: QueuedCall[] = [];
  private flushing: Promise<void> | undefined;
  private dropped = 0;
  private droppedSinceLog = 0;
  private lastDropLog = 0;

  constructor(private readonly options: WriteQueueOptions) {}

  /** Calls given up on so far: the queue was full, or the store kept failing. */
  get droppedCalls(): number {
    return this.dropped;
  }

  get size(): number {
    return this.queue.length;
  }

  push(call: QueuedCall): void {
    if (this.queue.length >= this.options.maxQueued) {
      this.drop(1, 'queue full');
      return;
    }
    this.queue.push(call);
    this.schedule();
  }

  /** Resolves once everything queued (and queued meanwhile) is written or given up. */
  async close(): Promise<void> {
    while (this.flushing || this.queue.length > 0) {
      this.schedule();
      await this.flushing;
    }
  }

  private schedule(): void {
    if (this.flushing) return;
    // Later, not now: the request that queued the record finishes writing its answer first, and
    // the records of the requests that end meanwhile join it.
    const linger = this.options.lingerMs ?? LINGER_MS;
    this.flushing = new Promise<void>((resolve) => (linger > 0 ? setTimeout(resolve, linger) : setImmediate(resolve)))
      .then(() => this.drain())
      .finally(() => {
        this.flushing = undefined;
        if (this.queue.length > 0) this.schedule();
      });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const calls = this.queue.splice(0, this.options.batchSize);
      // call/upsert_batch records one writer per batch: group the calls by user.
      const byUser = new Map<string, QueuedCall[]>();
      for (const call of calls) {
        const group = byUser.get(call.user);
        if (group) group.push(call);
        else byUser.set(call.user, [call]);
      }
      for (const [user, group] of byUser) await this.writeGroup(user, group);
    }
  }

  private async writeGroup(user: string, group: QueuedCall[]): Promise<void> {
    const batch = group.flatMap((c) => c.items);
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.options.write(user, batch);
        return;
      } catch (err) {
        // A record the store refuses (a rule, not an outage) must not take the others with it.
        if (isWeftError(err) && err.status < 500) {
          if (group.length > 1) {
            for (const call of group) await this.writeGroup(user, [call]);
          } else this.drop(1, 'refused by the store', err, group);
          return;
        }
        // Upserts keyed by call id: trying again never records a call twice.
        const delay = delays[attempt];
        if (delay === undefined) {
          this.drop(group.length, 'store error', err, group);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private drop(count: number, reason: string, err?: unknown, group?: QueuedCall[]): void {
    this.dropped += count;
    this.droppedSinceLog += count;
    const now = Date.now();
    // Store errors are always logged (with their projects); a full queue at most every few seconds.
    if (err === undefined && now - this.lastDropLog < DROP_LOG_EVERY_MS) return;
    this.lastDropLog = now;
    // Only the error's name and message: never the records (they hold prompts) nor credentials.
    const error =
      err instanceof Error ? { name: err.name, message: err.message } : err === undefined ? undefined : { message: 'not an Error' };
    this.options.logger.warn(
      {
        reason,
        dropped: this.droppedSinceLog,
        dropped_total: this.dropped,
        projects: group ? [...new Set(group.map((c) => c.projectId))] : undefined,
        err: error,
      },
      'router call records dropped',
    );
    this.droppedSinceLog = 0;
  }
}
