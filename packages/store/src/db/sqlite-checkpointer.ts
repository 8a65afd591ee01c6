// WAL checkpoints and write-ahead flushing for a SQLite file, off the main thread.
//
// SQLite checkpoints by itself when a commit leaves the WAL over 1,000 pages: the committing
// connection copies the WAL into the database file and fsyncs it, inside the commit call. With
// better-sqlite3 that is the main thread: after a large call batch the commit held the event loop
// far past the guide's 50 ms, most of it checkpointing. And the commit's own fsync flushes every
// WAL page the transaction wrote.
//
// So the writer connection has wal_autocheckpoint off, and this worker thread, with its own
// connection to the file, every TICK_MS: fdatasyncs the WAL when it has grown (pages of a long
// transaction reach the disk while it runs, and its commit's fsync has little left to flush;
// durability is unchanged: the commit still fsyncs), and checkpoints (PASSIVE: it never waits for
// readers or the writer) once the WAL holds CHECKPOINT_BYTES or CHECKPOINT_MS have passed. Should
// the thread stop, the writer checkpoints by itself again.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { threadError } from './sqlite-reader.ts';

const TICK_MS = 50;
const CHECKPOINT_BYTES = 4 << 20;
const CHECKPOINT_MS = 1000;

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('wal_autocheckpoint = 0');
const wal = workerData.path + '-wal';
// A commit is known by the writer's commit count (shared memory, bumped once a commit has
// returned): the WAL's size and mtime alone missed one. A tick may see a commit's last write (its
// final size and mtime) before the commit publishes it; the checkpoint then copies only the frames
// before it, and no later change of the file comes to retry (seen in CI: 8 MB left in the WAL).
// Another process's commits (the sqlite3 CLI) still show as a new size or mtime. And a checkpoint
// made while a reader held an older snapshot leaves frames behind: until one reports every frame
// copied, the next tick tries again.
const commits = new Int32Array(workerData.commits);
let flushed = '';
let checkpointed = '';
let commitsCheckpointed = -1;
let framesLeft = false;
let lastCheckpoint = Date.now();
setInterval(() => {
  let stat;
  try {
    stat = fs.statSync(wal);
  } catch {
    return; // no WAL yet, or it was just removed
  }
  const version = stat.size + ':' + stat.mtimeMs;
  if (version !== flushed) {
    const fd = fs.openSync(wal, 'r');
    try { fs.fdatasyncSync(fd); } finally { fs.closeSync(fd); }
    flushed = version;
  }
  const commitsNow = Atomics.load(commits, 0);
  const changed = version !== checkpointed || commitsNow !== commitsCheckpointed || framesLeft;
  if (changed && (stat.size >= ${CHECKPOINT_BYTES} || Date.now() - lastCheckpoint >= ${CHECKPOINT_MS})) {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    framesLeft = !result || result.checkpointed < result.log;
    checkpointed = version;
    commitsCheckpointed = commitsNow;
    lastCheckpoint = Date.now();
  }
}, ${TICK_MS});
`;

export interface SqliteCheckpointer {
  /** Call once each commit of the writer connection has returned. */
  committed(): void;
  close(): Promise<void>;
}

/**
 * Starts checkpointing the database file at `path` off the main thread; `onStop` runs if the
 * thread stops before close() (the writer should then checkpoint by itself again).
 */
export function sqliteCheckpointer(path: string, onStop: (err: Error) => void): SqliteCheckpointer {
  let closing = false;
  const commits = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, commits: commits.buffer, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  // It must never keep the process alive.
  worker.unref();
  worker.on('error', (err) => {
    if (!closing) onStop(threadError(err));
  });
  worker.on('exit', (code) => {
    if (!closing) onStop(new Error(`the SQLite checkpointer thread stopped (${code})`));
  });
  return {
    committed: () => void Atomics.add(commits, 0, 1),
    async close() {
      closing = true;
      await worker.terminate();
    },
  };
}
