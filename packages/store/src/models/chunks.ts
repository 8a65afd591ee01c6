// Limits of one multi-row INSERT of the trajectory log: bound parameters (SQLite 32766,
// PostgreSQL 65535 per statement) and a sane statement size, since one trajectory's JSON
// (messages with logprobs) can be megabytes.

export interface ChunkLimits {
  /** Rows per statement. 500 rows × 6 columns stays far below both parameter limits. */
  maxRows: number;
  /** Approximate bytes of JSON per statement; a single larger row still goes alone. */
  maxBytes: number;
}

/** The rows waiting for their INSERT are all that grows with a body: keep statements small. */
export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxRows: 500, maxBytes: 1024 * 1024 };

export interface SizedRow<R> {
  row: R;
  /** The row's JSON text length, for maxBytes. */
  bytes: number;
}
