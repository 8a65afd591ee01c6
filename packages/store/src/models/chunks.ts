// Splits rows into INSERT statements that stay below the databases' limits: bound parameters
// (SQLite 32766, PostgreSQL 65535 per statement) and a sane statement size, since one
// trajectory's JSON (messages with logprobs) can be megabytes.
//
// Lazy on both sides: rows are produced (and serialised) only when their chunk is due, so at most
// one chunk of JSON text is alive beside the parsed request.

export interface ChunkLimits {
  /** Rows per statement. 500 rows × 6 columns stays far below both parameter limits. */
  maxRows: number;
  /** Approximate bytes of JSON per statement; a single larger row still goes alone. */
  maxBytes: number;
}

export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxRows: 500, maxBytes: 8 * 1024 * 1024 };

export interface SizedRow<R> {
  row: R;
  /** The row's JSON text length, for maxBytes. */
  bytes: number;
}

export function* chunked<R>(rows: Iterable<SizedRow<R>>, limits: ChunkLimits): Generator<R[]> {
  let chunk: R[] = [];
  let bytes = 0;
  for (const item of rows) {
    if (chunk.length > 0 && (chunk.length >= limits.maxRows || bytes + item.bytes > limits.maxBytes)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(item.row);
    bytes += item.bytes;
  }
  if (chunk.length > 0) yield chunk;
}
