// Limits of one multi-row INSERT of the trajectory log: bound parameters (SQLite 32766,
// PostgreSQL 65535 per statement) and a sane statement size, since one trajectory's JSON
// (messages with logprobs) can be megabytes.
import type { Dialect } from '../db/index.ts';
import { statementsHoldEventLoop } from '../db/dialect-event-loop.ts';

export interface ChunkLimits {
  /** Rows per statement. 500 rows × 6 columns stays far below both parameter limits. */
  maxRows: number;
  /** Approximate bytes of JSON per statement; a single larger row still goes alone. */
  maxBytes: number;
}

/**
 * The rows waiting for their INSERT are all that grows with a body: keep statements small. On
 * SQLite a statement holds the event loop while it runs, so 1 MB. PostgreSQL works beside the
 * event loop, and the log waits for each chunk's INSERT before sending the next: 4 MB chunks
 * (four trajectories with logprobs) made a large log faster than 1 MB ones (BENCHMARKS.md,
 * scenario 4); 8 and 16 MB were no faster.
 */
export function defaultChunkLimits(dialect: Dialect): ChunkLimits {
  return { maxRows: 500, maxBytes: (statementsHoldEventLoop(dialect) ? 1 : 4) * 1024 * 1024 };
}

export interface SizedRow<R> {
  row: R;
  /** The row's JSON text length, for maxBytes. */
  bytes: number;
}
