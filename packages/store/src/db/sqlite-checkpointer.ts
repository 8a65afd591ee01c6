// Atomics.waitAsync (Node 16 and later) is typed in this lib only.
/// <reference lib="es2024.sharedmemory" />
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
//
// A PASSIVE checkpoint copies the WAL's frames but SQLite starts the WAL again from its beginning
// only when a write transaction begins with every frame copied; writes that follow each other
// without a pause (a sustained OTLP ingest) leave no such moment, and the WAL grew without bound
// (BENCHMARKS.md, "OTLP spans mapped on a thread of their own"). So once it holds the bound's
// worth of frames, the writer is asked to pause (`walRoom`): its next write waits, asynchronously
// and holding its turn, until this thread has checkpointed while it was idle, and then restarts
// the WAL. A checkpoint that could not copy everything (a reader holds older frames) asks again
// only after another bound's worth of frames.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { remainingMs } from './deadline.ts';
import { threadError } from './sqlite-reader.ts';

const TICK_MS = 50;
const CHECKPOINT_BYTES = 4 << 20;
const CHECKPOINT_MS = 1000;
/** The WAL's size at which the writer is asked to pause for a checkpoint. */
export const WAL_BOUND_BYTES = 64 << 20;
/** The longest a write waits for that checkpoint (a busy or stopped thread): it then goes on. */
const WAL_WAIT_MS = 2000;
/** Slots of the shared memory. */
const COMMITS = 0;
const WANT = 1;
const WAITING = 2;
const DONE = 3;

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
const shared = new Int32Array(workerData.shared);
const boundFrames = Math.ceil(workerData.walBound / (db.pragma('page_size', { simple: true }) + 24));
let wantAt = boundFrames;
let pausedSalt;
/** Salt-1 of the WAL's header: SQLite changes it each time the WAL starts again from its beginning. */
function walSalt() {
  try {
    const fd = fs.openSync(wal, 'r');
    try {
      const bytes = Buffer.alloc(4);
      fs.readSync(fd, bytes, 0, 4, 16);
      return bytes.readUInt32BE(0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined; // removed: started again, in effect
  }
}
let flushed = '';
let checkpointed = '';
let commitsCheckpointed = -1;
let framesLeft = false;
let lastCheckpoint = Date.now();
/** The checkpoint the writer is idle for, if it waits: true if made. */
function pausedCheckpoint() {
  if (Atomics.load(shared, ${WANT}) !== 1 || Atomics.load(shared, ${WAITING}) !== 1) return false;
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  framesLeft = !result || result.checkpointed < result.log;
  lastCheckpoint = Date.now();
  // All copied: the writer's next write starts the WAL again, unless a reader still holds older
  // frames (seen at the next checkpoint: the WAL header's salt is unchanged). Not all copied, or
  // not started again: asked again only after another bound's worth of frames.
  if (framesLeft) wantAt = (result ? result.log : 0) + boundFrames;
  else {
    wantAt = boundFrames;
    pausedSalt = walSalt();
  }
  Atomics.store(shared, ${WANT}, 0);
  Atomics.store(shared, ${WAITING}, 0);
  Atomics.add(shared, ${DONE}, 1);
  Atomics.notify(shared, ${DONE});
  return true;
}
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
  if (pausedCheckpoint()) return;
  const commitsNow = Atomics.load(shared, ${COMMITS});
  const changed = version !== checkpointed || commitsNow !== commitsCheckpointed || framesLeft;
  if (changed && (stat.size >= ${CHECKPOINT_BYTES} || Date.now() - lastCheckpoint >= ${CHECKPOINT_MS})) {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    framesLeft = !result || result.checkpointed < result.log;
    if (pausedSalt !== undefined && result) {
      if (walSalt() === pausedSalt) wantAt = result.log + boundFrames;
      pausedSalt = undefined;
    }
    if (result && result.log < boundFrames) wantAt = boundFrames;
    else if (result && result.log >= wantAt) {
      Atomics.store(shared, ${WANT}, 1);
      // Checkpointed as soon as the writer waits (it notifies), not at the next tick.
      const waiting = Atomics.waitAsync(shared, ${WAITING}, 0, ${WAL_WAIT_MS});
      if (waiting.async) waiting.value.then(pausedCheckpoint);
      else pausedCheckpoint();
    }
    checkpointed = version;
    commitsCheckpointed = commitsNow;
    lastCheckpoint = Date.now();
  }
}, ${TICK_MS});
`;

export interface SqliteCheckpointer {
  /** Call once each commit of the writer connection has returned. */
  committed(): void;
  /**
   * Call holding the writer's turn, before a write: undefined, or a promise to await first when
   * the WAL is over its bound (resolved once checkpointed, or after WAL_WAIT_MS at most).
   */
  walRoom(): Promise<void> | undefined;
  close(): Promise<void>;
}

/**
 * Starts checkpointing the database file at `path` off the main thread; `onStop` runs if the
 * thread stops before close() (the writer should then checkpoint by itself again).
 */
export function sqliteCheckpointer(path: string, onStop: (err: Error) => void, walBound = WAL_BOUND_BYTES): SqliteCheckpointer {
  let closing = false;
  let stopped = false;
  const shared = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, shared: shared.buffer, walBound, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  // It must never keep the process alive.
  worker.unref();
  worker.on('error', (err) => {
    stopped = true;
    if (!closing) onStop(threadError(err));
  });
  worker.on('exit', (code) => {
    stopped = true;
    if (!closing) onStop(new Error(`the SQLite checkpointer thread stopped (${code})`));
  });
  return {
    committed: () => void Atomics.add(shared, COMMITS, 1),
    walRoom() {
      if (stopped || Atomics.load(shared, WANT) !== 1) return undefined;
      const ms = Math.min(WAL_WAIT_MS, remainingMs('waiting for a WAL checkpoint'));
      const done = Atomics.load(shared, DONE);
      Atomics.store(shared, WAITING, 1);
      Atomics.notify(shared, WAITING);
      const wait = Atomics.waitAsync(shared, DONE, done, ms);
      if (!wait.async) return undefined;
      // A pending waitAsync does not keep the process alive, and the thread is unref'd: a process
      // with nothing else to do (a seeding script, `weft` import) would exit mid-write, code 0.
      const alive = setTimeout(() => {}, ms);
      return wait.value.then((outcome) => {
        clearTimeout(alive);
        // Not checkpointed in time: the writer goes on, and is asked again at the thread's next look.
        if (outcome !== 'timed-out') return;
        Atomics.store(shared, WANT, 0);
        Atomics.store(shared, WAITING, 0);
      });
    },
    async close() {
      closing = true;
      await worker.terminate();
    },
  };
}
