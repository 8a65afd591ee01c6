// The OTLP mapping thread's entry (map-thread.ts starts it): reads an export's protobuf body,
// decodes and maps its spans, and posts the calls a chunk at a time, never more than the main
// thread has room for (`flow`), so a large export is not held whole in either thread.
import { parentPort } from 'node:worker_threads';
import { WeftError, weftErrorParts, type WeftErrorParts } from '../errors.ts';
import { TurnClock } from '../turns.ts';
import { readOtlpProtobuf } from './decode-protobuf.ts';
import { otlpCallChunks, SpanTally, type TallyState } from './otel-export.ts';
import type { OtelCall } from './span-to-call.ts';

/** flow[FLOW_ROOM]: chunks the main thread will still take; flow[FLOW_CANCELLED]: 1 once it stopped taking them. */
export const FLOW_ROOM = 0;
export const FLOW_CANCELLED = 1;

export interface MapAsk {
  id: number;
  body: Uint8Array;
  projects: readonly string[];
  size: number;
  flow: Int32Array;
}

export type MapAnswer =
  | { id: number; chunk: OtelCall[] }
  | { id: number; done: TallyState }
  | { id: number; cancelled: true }
  | { id: number; error: WeftErrorParts | { message: string } };

// This thread has no other work: it never passes a turn, and waits for room by blocking.
const NEVER_DUE = new TurnClock(Number.POSITIVE_INFINITY);
const WAIT_MS = 1000;

async function map({ id, body, projects, size, flow }: MapAsk): Promise<MapAnswer> {
  const tally = new SpanTally();
  const request = await readOtlpProtobuf(body, NEVER_DUE);
  for await (const chunk of otlpCallChunks(request, projects, tally, size, NEVER_DUE)) {
    while (Atomics.load(flow, FLOW_ROOM) <= 0 && Atomics.load(flow, FLOW_CANCELLED) === 0) Atomics.wait(flow, FLOW_ROOM, 0, WAIT_MS);
    if (Atomics.load(flow, FLOW_CANCELLED) !== 0) return { id, cancelled: true };
    Atomics.sub(flow, FLOW_ROOM, 1);
    parentPort?.postMessage({ id, chunk } satisfies MapAnswer);
  }
  return { id, done: tally.state };
}

function failure(id: number, err: unknown): MapAnswer {
  if (err instanceof WeftError) return { id, error: weftErrorParts(err) };
  return { id, error: { message: err instanceof Error ? err.message : String(err) } };
}

// One export at a time, in the order asked.
let queue = Promise.resolve();
parentPort?.on('message', (ask: MapAsk) => {
  queue = queue.then(async () => parentPort?.postMessage(await map(ask).catch((err: unknown) => failure(ask.id, err))));
});
