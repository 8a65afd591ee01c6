// Records every router request as a call, through the store's own call writes (call/upsert_batch:
// the same code path as an SDK's batch), never in the way of the answer: the handler hands over a
// start and a finish, and a background writer puts them in the store in batches.
//
// Crash semantics (what a process that dies mid-flight leaves behind):
// - A streamed request's start is queued when the request arrives and written with the next batch
//   (within about 0.1 s: write-queue.ts). If the process dies mid-stream, the call stays as
//   started and never ended: Studio shows it `running`, with its inputs and no output, usage or cost.
// - A non-streamed request is written once, start and end together, after its answer was handed
//   to the client. If the process dies between the answer and that write (the queue, at most one
//   batch in flight), the call is not recorded at all.
// - Nothing is counted twice: the row is keyed by the call id the recorder chose, and both halves
//   are upserts, so a batch retried after an error that may have committed rewrites the same row.
//   Usage and cost live only in the end half, so a call without an end costs nothing.
// - A graceful stop (SIGTERM) waits for requests in flight, then close() writes what is queued.
import { uuidv7 } from '@weft/core';
import type { Store } from '@weft/store';
import type * as T from '@weft/types';
import type { Logger } from 'pino';
import { shapeEnd, shapeStart, type RecordFinish, type RecordStart } from './call-shape.ts';
import { WriteQueue, type QueuedCall } from './write-queue.ts';

export type { RecordFinish, RecordStart } from './call-shape.ts';

export interface RecordHandle {
  readonly callId: string;
  readonly traceId: string;
  finish(f: RecordFinish): void;
}

export interface CallRecorder {
  start(s: RecordStart): RecordHandle;
  /** Flushes what is queued (graceful stop). */
  close(): Promise<void>;
}

export interface CallRecorderOptions {
  /** Calls waiting to be written; beyond it new records are dropped (counted and logged). */
  maxQueued?: number;
  /** Calls written per call/upsert_batch transaction. */
  batchSize?: number;
  /** Waits before each new try of a batch the store failed to write (then it is dropped and logged). */
  retryDelaysMs?: readonly number[];
}

export function createCallRecorder(deps: { store: Store; logger: Logger }, options: CallRecorderOptions = {}): CallRecorder {
  const logger = deps.logger.child({ component: 'router-recorder' });
  const queue = new WriteQueue({
    write: (user, batch) => deps.store.callUpsertBatch({ batch }, { user }).then(() => undefined),
    logger,
    maxQueued: options.maxQueued ?? 10_000,
    batchSize: options.batchSize ?? 200,
    retryDelaysMs: options.retryDelaysMs,
  });

  function start(s: RecordStart): RecordHandle {
    const ids = { id: uuidv7(), trace_id: s.parent?.trace_id ?? uuidv7() };
    // Streams show as running at once; a non-streamed call is written whole when it ends.
    if (s.stream) guarded(() => enqueue(s, [{ mode: 'start', req: { start: shapeStart(s, ids) } }]));
    let finished = false;
    return {
      callId: ids.id,
      traceId: ids.trace_id,
      finish(f: RecordFinish): void {
        if (finished) return;
        finished = true;
        // The start again with what was learnt (served model, attempts), then the end: one unit,
        // so a start dropped from a full queue is made good here.
        guarded(() =>
          enqueue(s, [
            { mode: 'start', req: { start: shapeStart(s, ids, f) } },
            { mode: 'end', req: { end: shapeEnd(s, ids, f) } },
          ]),
        );
      },
    };
  }

  function enqueue(s: RecordStart, items: T.CallUpsertBatchReq['batch']): void {
    const call: QueuedCall = { user: s.principal.username, projectId: s.projectId, items };
    queue.push(call);
  }

  // Recording must never fail the request it records.
  function guarded(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      logger.error({ err: { name: (err as Error).name, message: (err as Error).message } }, 'could not queue a router call record');
    }
  }

  return { start, close: () => queue.close() };
}
