// Long reads on SQLite, off the main thread. better-sqlite3 is synchronous: a query that sorts a
// million rows (a table's first sorted page, a sort order's build) would hold the event loop, and
// every other request, for seconds. Such reads go to a worker thread with its own read-only
// connection to the same file (WAL lets readers run beside the writer) and come back as rows, in
// batches of about BATCH_CHARS characters: a message is deserialised on the main thread in one
// piece, so a 50 MB answer sent whole would hold it for a quarter of a second.
//
// The worker's code is a string evaluated in the worker (not a file), so it runs the same from
// TypeScript sources (tests, tsx) and from the built JavaScript; it loads better-sqlite3 by the
// path this module resolves.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface LongRead {
  sql: string;
  parameters: readonly unknown[];
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const sizeOf = (row) => {
  let n = 16;
  for (const k in row) {
    const v = row[k];
    n += typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.byteLength : 8;
  }
  return n;
};
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let rows = [];
    let chars = 0;
    for (const row of db.prepare(sql).iterate(parameters)) {
      rows.push(row);
      chars += sizeOf(row);
      if (chars >= workerData.batchChars) {
        parentPort.postMessage({ id, rows, more: true });
        rows = [];
        chars = 0;
      }
    }
    parentPort.postMessage({ id, rows });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err.message, code: err.code } });
  }
});
`;

/** Characters of row values per message from the reader thread (about 2 ms to deserialise). */
const BATCH_CHARS = 1 << 20;

export interface SqliteReader {
  read<R>(query: LongRead): Promise<R[]>;
  close(): Promise<void>;
}

/** A reader of the database file at `path`, started on first use. */
export function sqliteReader(path: string): SqliteReader {
  let worker: { thread: Worker; pending: Map<number, Pending> } | undefined;
  let nextId = 0;
  const start = () => {
    const thread = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3'), batchChars: BATCH_CHARS },
    });
    // Each thread answers only its own reads: a thread that failed fails those, and the next read
    // starts a new one, which the old one's later events must not touch.
    const mine = { thread, pending: new Map<number, Pending>() };
    const failAll = (err: unknown) => {
      for (const p of mine.pending.values()) p.reject(threadError(err));
      mine.pending.clear();
      if (worker === mine) worker = undefined;
    };
    thread.on('message', (m: { id: number; rows?: unknown[]; more?: boolean; error?: { message: string; code?: string } }) => {
      const p = mine.pending.get(m.id);
      if (m.more) {
        for (const row of m.rows ?? []) p?.rows.push(row);
        return;
      }
      mine.pending.delete(m.id);
      // Idle, the thread must not keep the process alive; busy, it must.
      if (mine.pending.size === 0) thread.unref();
      if (m.error) p?.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
      else if (p) {
        for (const row of m.rows ?? []) p.rows.push(row);
        p.resolve(p.rows);
      }
    });
    thread.on('error', failAll);
    thread.on('exit', () => failAll(new Error('the SQLite reader thread stopped')));
    return mine;
  };
  return {
    read<R>(query: LongRead): Promise<R[]> {
      worker ??= start();
      const id = nextId++;
      const { thread, pending } = worker;
      return new Promise<R[]>((resolve, reject) => {
        if (pending.size === 0) thread.ref();
        pending.set(id, { rows: [], resolve: resolve as (rows: unknown[]) => void, reject });
        thread.postMessage({ id, sql: query.sql, parameters: query.parameters });
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      if (w) await w.thread.terminate();
    },
  };
}

interface Pending {
  rows: unknown[];
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

/**
 * What a thread's failure arrives as: an error of a class of better-sqlite3's (SqliteError) is
 * not cloned as an Error across the thread's edge, only its own fields (`{code}`).
 */
export function threadError(err: unknown): Error {
  if (err instanceof Error && err.message) return err;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const why = typeof message === 'string' && message ? message : typeof code === 'string' ? code : 'unknown failure';
  return Object.assign(new Error(`the SQLite thread failed: ${why}`), typeof code === 'string' ? { code } : {});
}
