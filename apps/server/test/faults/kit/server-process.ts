// The real Weft server as a child process, from the build, as `pnpm start` runs it: a fault test
// must see whether the process survives (or exits, with which code, saying what on stderr), which
// an in-process server cannot show. Port 0, its own temp dir, an auth file with alice (entity
// `acme`) and bob (entity `globex`), the environment the test gives (DATABASE_URL, REDIS_URL,
// RATE_LIMIT_*, …) and none inherited of those, so no test reaches the shared services unasked.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTwoTenants } from '../../two-tenants.ts';
import { apiCall, type ApiOutcome, type CallOptions } from './api-call.ts';
import { onProcessExit, signalQuietly } from './exit-cleanup.ts';
import { ensureServerBuilt, REPO_ROOT, SERVER_MAIN } from './server-build.ts';
import { waitFor, within } from './wait-for.ts';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcessOptions {
  /** The server's environment on top of the kit's defaults (PORT=0, LOG_LEVEL=info, a SQLite file in its dir). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

export type LogLine = Record<string, unknown> & { msg?: string; level?: number };

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** The DATABASE_URL it runs on (a WriteLedger's verify reads the key order it keeps from it). */
  readonly databaseUrl: string;
  /** Its DATA_DIR, holding the auth file (and the SQLite file unless DATABASE_URL says otherwise). */
  readonly dir: string;
  readonly aliceKey: string;
  readonly bobKey: string;
  /** Settles when the process exits, however it does. */
  readonly exited: Promise<ExitInfo>;
  alive(): boolean;
  stdout(): string;
  stderr(): string;
  /** stdout's JSON log lines (pino), parsed. */
  logLines(): LogLine[];
  waitForLog(match: (line: LogLine) => boolean, timeoutMs: number, what: string): Promise<LogLine>;
  /** A call as alice unless `opts.key` says otherwise (`key: ''`: unauthenticated). */
  call(path: string, body?: unknown, opts?: CallOptions): Promise<ApiOutcome>;
  /**
   * SIGTERM, then SIGKILL if it has not exited within `timeoutMs` (default 40 s: above the
   * server's own SHUTDOWN_TIMEOUT, 30 s by default, so a slow graceful stop is not cut); removes its dir.
   */
  stop(opts?: { timeoutMs?: number }): Promise<ExitInfo>;
}

/** Env names the server reads that a test must set itself, never inherit. */
const NOT_INHERITED =
  /^(DATABASE_URL|REDIS_URL|RATE_LIMIT_.*|AUTH_FILE|DATA_DIR|PORT|HOST|NODE_OPTIONS|MODELS_FILE|WEB_DIR|ROUTER_CONFIG.*)$/;

export async function startServerProcess(opts: ServerProcessOptions = {}): Promise<ServerProcess> {
  await ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'weft-fault-server-'));
  const { authFile, aliceKey, bobKey } = writeTwoTenants(dir);
  const databaseUrl = opts.env?.DATABASE_URL ?? `sqlite:${join(dir, 'weft.sqlite')}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_INHERITED.test(name)));
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'production',
      PORT: '0',
      DATA_DIR: dir,
      AUTH_FILE: authFile,
      LOG_LEVEL: 'info',
      ...opts.env,
      DATABASE_URL: databaseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const unregister = onProcessExit(() => {
    signalQuietly(child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  let stdout = '';
  let stderr = '';
  const lines: LogLine[] = [];
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as LogLine);
      } catch {
        // Not a log line (a banner, a stray print): kept in stdout() only.
      }
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<ExitInfo>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const waitForLog = async (match: (line: LogLine) => boolean, timeoutMs: number, what: string) =>
    waitFor(() => lines.find(match) ?? (!alive() ? Promise.reject(new Error(`the server exited while waiting for ${what}`)) : undefined), {
      timeoutMs,
      what,
    });

  let url: string;
  try {
    const listening = await waitForLog((l) => l.msg === 'weft listening', opts.startTimeoutMs ?? 60_000, 'the server to listen');
    url = String(listening.url);
  } catch (err) {
    signalQuietly(child.pid, 'SIGKILL');
    await exited;
    unregister();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n--- stdout ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-3000)}`, {
      cause: err,
    });
  }

  let stopping: Promise<ExitInfo> | undefined;
  return {
    url,
    pid: child.pid!,
    databaseUrl,
    dir,
    aliceKey,
    bobKey,
    exited,
    alive,
    stdout: () => stdout,
    stderr: () => stderr,
    logLines: () => lines,
    waitForLog,
    call: (path, body, callOpts = {}) => apiCall(url, path, body, { ...callOpts, key: callOpts.key ?? aliceKey }),
    stop({ timeoutMs = 40_000 } = {}) {
      stopping ??= (async () => {
        if (alive()) {
          child.kill('SIGTERM');
          try {
            await within(exited, timeoutMs, 'the server to stop on SIGTERM');
          } catch {
            child.kill('SIGKILL'); // the last resort
          }
        }
        const info = await exited;
        unregister();
        rmSync(dir, { recursive: true, force: true });
        return info;
      })();
      return stopping;
    },
  };
}
