// What the fault kit starts outlives a failed test unless someone stops it: a frozen PostgreSQL
// cluster, a paused redis-server, a tmpfs mount, a server child process. Each piece registers a
// synchronous last-resort cleanup here, run when the test process exits (normally or through
// process.exit); the pieces' own stop/destroy in afterAll stay the usual path and unregister it.
const cleanups = new Set<() => void>();
let hooked = false;

/** Runs `cleanup` (synchronously) when the process exits, unless the returned function is called first. */
export function onProcessExit(cleanup: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.once('exit', runAll);
  }
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function runAll(): void {
  for (const cleanup of [...cleanups].reverse()) {
    try {
      cleanup();
    } catch {
      // Best effort: the process is exiting; the next cleanup must still run.
    }
  }
  cleanups.clear();
}

/** Sends `signal` to `pid`, ignoring a process that is already gone. */
export function signalQuietly(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: it already exited.
  }
}
