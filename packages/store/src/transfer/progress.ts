// What long transfers report as they go; the command line draws it (a bar on a terminal, plain
// lines otherwise). Rows are counted per table and phase.
// `backup` and `restore` count SQLite pages rather than rows.
export type TransferPhase = 'export' | 'import' | 'copy' | 'verify' | 'check' | 'backup' | 'restore';

export interface TransferProgress {
  phase: TransferPhase;
  table: string;
  state: 'start' | 'rows' | 'end';
  /** Rows of this table done in this phase (a resumed copy starts at the rows already there). */
  done: number;
  /** Rows expected, when known. */
  total: number | undefined;
}

export type ProgressListener = (progress: TransferProgress) => void;

/** The options every transfer takes. */
export interface TransferOptions {
  /** Most rows per batch (fewer for large rows: batches also stay near 16 MB). Default 1000. */
  batchSize?: number | undefined;
  /** Stops between batches: what was written stays, and a rerun continues. */
  signal?: AbortSignal | undefined;
  onProgress?: ProgressListener | undefined;
}

export const DEFAULT_BATCH_SIZE = 1000;

/** Reports one table's phase: start, after each batch, end. */
export function tableProgress(opts: TransferOptions, phase: TransferPhase, table: string, total: number | undefined, done = 0) {
  const emit = (state: TransferProgress['state'], rows: number) => opts.onProgress?.({ phase, table, state, done: rows, total });
  emit('start', done);
  return { rows: (rows: number) => emit('rows', rows), end: (rows: number) => emit('end', rows) };
}
