// An OTLP export's calls, decoded and mapped on a thread of its own while the main thread stores
// the chunks already mapped.
//
// Decoding and mapping spans took about as long as inserting them, one after the other on the
// main thread (BENCHMARKS.md, scenario 9). With a protobuf body of enough spans the mapping thread
// reads the body again (moved to it) and posts the calls a chunk at a time, at most AHEAD
// chunks ahead of the one the store takes, so memory stays bounded whatever the export's size.
// One thread per process, started on first use. Small exports and OTLP/JSON are mapped in place
// (a message costs more than their mapping). A thread that stops fails the exports it was mapping
// with a 503 (exporters send them again) and the next export starts a new one; after three
// threads every export is mapped in place: same calls, only slower.
import { type Worker } from 'node:worker_threads';
import { serviceUnavailable, weftErrorOf, weftErrorParts } from '../errors.ts';
import { TurnClock } from '../turns.ts';
import { ThreadSlot } from '../thread-slot.ts';
import { workerOf } from '../worker-of.ts';
import type { OtlpExport } from './decode-protobuf.ts';
import { FLOW_CANCELLED, FLOW_ROOM, type MapAnswer, type MapAsk } from './map-worker.ts';
import { otlpCallChunks, type SpanTally } from './otel-export.ts';
import type { OtelCall } from './span-to-call.ts';

/** Exports of fewer spans are mapped in place. */
export const THREAD_MIN_SPANS = 256;
/** Chunks the thread may map ahead of the one the store takes. */
const AHEAD = 4;
// Its values live only while one chunk is mapped.
const YOUNG_GENERATION_MB = 8;

/**
 * otlpCallChunks's calls, in the same chunks, mapped on the mapping thread when the export is a
 * protobuf body of at least THREAD_MIN_SPANS spans; a body given away (readOtlpProtobuf's `given`)
 * then moves to the thread and is left empty here. Breaking out of the loop stops the thread's work.
 */
export async function* otlpCallChunksOffMain(
  request: OtlpExport,
  projects: readonly string[],
  tally: SpanTally,
  size: number,
  clock = new TurnClock(),
): AsyncGenerator<OtelCall[]> {
  const thread = request.body && spanCount(request) >= THREAD_MIN_SPANS ? slot.get() : undefined;
  if (thread && request.body) yield* thread.chunks(request.body, request.bodyGiven === true, projects, tally, size);
  else yield* otlpCallChunks(request, projects, tally, size, clock);
}

function spanCount(request: OtlpExport): number {
  let n = 0;
  for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
  return n;
}

/** One export's messages from the thread, as they arrive. */
interface Job {
  answers: MapAnswer[];
  wake: (() => void) | undefined;
}

interface MapThread {
  worker: Worker;
  chunks(body: Uint8Array, given: boolean, projects: readonly string[], tally: SpanTally, size: number): AsyncGenerator<OtelCall[]>;
}

const slot = new ThreadSlot(startThread);

/** Mapping threads started, and those that failed to start or stopped (0 in a healthy process). */
export function mapThreadCounts(): { starts: number; stops: number } {
  return slot.counts;
}

/** The running thread's worker (tests stop it to see the exports it was mapping fail cleanly). */
export function mapThreadWorker(): Worker | undefined {
  return slot.current?.worker;
}

function startThread(): MapThread {
  const worker: Worker = workerOf(new URL(import.meta.url), 'map-worker', { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB });
  const jobs = new Map<number, Job>();
  let next = 0;
  // Only while exports are being mapped does the thread keep the process alive.
  worker.unref();
  worker.on('message', (answer: MapAnswer) => {
    const job = jobs.get(answer.id);
    if (!job) return;
    job.answers.push(answer);
    job.wake?.();
  });
  const stop = () => {
    if (!slot.stopped(self)) return;
    const stopped = weftErrorParts(serviceUnavailable('the OTLP mapping thread stopped; send the export again'));
    for (const [id, job] of jobs) {
      job.answers.push({ id, error: stopped });
      job.wake?.();
    }
  };
  worker.on('error', stop);
  worker.on('exit', stop);
  const self: MapThread = {
    worker,
    async *chunks(body, given, projects, tally, size) {
      const id = next++;
      const job: Job = { answers: [], wake: undefined };
      const flow = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
      flow[FLOW_ROOM] = AHEAD;
      // A body given away moves to the thread when it owns its memory (a body read in pieces is one
      // buffer of its own): the export's spans on this thread are left empty, and nothing reads
      // them once the thread maps them. Any other body is copied.
      const whole = given && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
      const moved = whole ? body : new Uint8Array(body);
      jobs.set(id, job);
      if (jobs.size === 1) worker.ref();
      let finished = false;
      try {
        worker.postMessage({ id, body: moved, projects, size, flow } satisfies MapAsk, [moved.buffer as ArrayBuffer]);
        for (;;) {
          const answer = job.answers.shift();
          if (!answer) {
            await new Promise<void>((resolve) => (job.wake = resolve));
            job.wake = undefined;
            continue;
          }
          if ('chunk' in answer) {
            Atomics.add(flow, FLOW_ROOM, 1);
            Atomics.notify(flow, FLOW_ROOM);
            yield answer.chunk;
          } else if ('done' in answer) {
            finished = true;
            tally.add(answer.done);
            return;
          } else if ('error' in answer) {
            finished = true;
            throw errorOf(answer.error);
          } else return;
        }
      } finally {
        if (!finished) {
          Atomics.store(flow, FLOW_CANCELLED, 1);
          Atomics.notify(flow, FLOW_ROOM);
        }
        jobs.delete(id);
        if (jobs.size === 0) worker.unref();
      }
    },
  };
  return self;
}

function errorOf(error: Extract<MapAnswer, { error: unknown }>['error']): Error {
  return 'errorType' in error ? weftErrorOf(error) : new Error(error.message);
}
