// What the README tells operators to run for the server (`pnpm start`, `pnpm weft serve`, the
// built `weft` bin) stops gracefully on the signal that a process manager or a container runtime
// sends to exactly the process it started, and on Ctrl-C (SIGINT to the whole process group): a
// request in flight completes with 200 and is stored, the command exits 0, and no process it
// started is left running. A signal during `pnpm start`'s build stops the build and starts nothing.
// Linux only: the processes are read from /proc.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '@weft/store';
import { describeIfPostgres } from '@weft/store/testing';
import { formatAuthFile, generateApiKey, hashApiKey } from '../src/auth/index.ts';
import { withBuildLock } from './build-lock.ts';
import { processTree, stillRunning, type ProcessEntry } from './process-tree.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const key = generateApiKey();
const START_MS = 150_000; // `pnpm start` checks the build first; a loaded machine is slow at it

interface Command {
  file: string;
  args: string[];
  /** The command rebuilds or restores dist/: it takes turns with the other tests that use it. */
  build: boolean;
}

const pnpmStart: Command = { file: 'pnpm', args: ['start'], build: true };
const pnpmWeftServe: Command = { file: 'pnpm', args: ['weft', 'serve'], build: false };
const weftBin: Command = { file: process.execPath, args: ['apps/server/dist/main.js', 'serve'], build: true };

/** A command started in its own session, as a process manager starts it, and its output. */
function launch(command: Command, env: Record<string, string>) {
  const child = spawn(command.file, command.args, {
    cwd: repo,
    detached: true,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => ((output += d.toString()), notify()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => (resolve({ code, signal }), notify())),
  );
  const waitFor = (pattern: RegExp, ms: number) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match) finish(() => resolve(match));
        else if (!running()) finish(() => reject(new Error(`exited before ${pattern}:\n${output}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${ms} ms:\n${output}`))), ms);
      const finish = (settle: () => void) => (clearTimeout(timer), listeners.delete(check), settle());
      listeners.add(check);
      check();
    });
  return { pid: child.pid!, output: () => output, exited, running, waitFor };
}

/** Waits, up to `ms`, until none of the processes seen (nor any of the session) runs; returns those that still do. */
async function leftRunning(root: number, seen: readonly ProcessEntry[], ms = 15_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = stillRunning(root, seen);
    if (left.length === 0 || Date.now() > deadline) return left.map((p) => `${p.pid} ${p.command}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function killAll(root: number, seen: readonly ProcessEntry[]): void {
  for (const p of stillRunning(root, seen)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // exited meanwhile
    }
  }
}

/**
 * A call whose body is sent in two pieces: the first once the server has answered
 * `100 Continue` (it has read the headers and handed the request to the app, so the request is
 * in flight), the second when `finish` is called.
 */
async function callInFlight(baseUrl: string) {
  const start = {
    project_id: 'acme/signals',
    op_name: 'drain',
    started_at: new Date().toISOString(),
    attributes: {},
    inputs: { sent: 'in two pieces' },
  };
  const body = Buffer.from(JSON.stringify({ start }));
  const { hostname, port } = new URL(baseUrl);
  const basic = Buffer.from(`api:${key}`).toString('base64');
  const headers = {
    authorization: `Basic ${basic}`,
    'content-type': 'application/json',
    'content-length': body.length,
    expect: '100-continue',
  };
  const req = request({ hostname, port, method: 'POST', path: '/call/start', headers });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
  });
  await new Promise<void>((resolve, reject) => {
    req.once('continue', resolve);
    answer.then(({ status, body }) => reject(new Error(`answered ${status} before the body: ${body}`)), reject);
    req.flushHeaders();
  });
  req.write(body.subarray(0, body.length >> 1));
  return {
    finish: () => {
      req.end(body.subarray(body.length >> 1));
      return answer;
    },
  };
}

async function storedCall(databaseUrl: string, dir: string, id: string): Promise<boolean> {
  const db = await openDatabase(databaseUrl, { dataDir: dir });
  try {
    return (await db.kysely.selectFrom('calls').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  } finally {
    await db.close();
  }
}

function serverEnv(dir: string, databaseUrl: string): Record<string, string> {
  const authFile = join(dir, 'auth.yaml');
  writeFileSync(authFile, formatAuthFile({ users: [{ username: 'alice', entities: ['acme'], apiKeyHashes: [hashApiKey(key)] }] }));
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: databaseUrl,
    AUTH_FILE: authFile,
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    SHUTDOWN_TIMEOUT: '60s',
  };
}

/**
 * Starts `command`, starts a call, signals the command (`group`: its whole process group, as a
 * terminal's Ctrl-C does; else exactly the process started), then finishes the call.
 */
async function drainsOnSignal(command: Command, signal: 'SIGTERM' | 'SIGINT', group: boolean, databaseUrl?: (dir: string) => string) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-signals-'));
  const url = databaseUrl?.(dir) ?? `sqlite:${join(dir, 'weft.sqlite')}`;
  const run = launch(command, serverEnv(dir, url));
  let seen: ProcessEntry[] = [];
  try {
    const [, baseUrl] = await run.waitFor(/"url":"(http:[^"]+)"[^\n]*"msg":"weft listening"/, START_MS);
    const call = await callInFlight(baseUrl!);
    seen = processTree(run.pid);
    process.kill(group ? -run.pid : run.pid, signal);
    await run.waitFor(new RegExp(`"signal":"${signal}","msg":"shutting down: finishing requests in flight"`), 30_000);

    const answer = await call.finish();
    expect(answer.status, answer.body).toBe(200);
    const { id } = JSON.parse(answer.body) as { id: string };
    expect(await run.exited, run.output()).toEqual({ code: 0, signal: null });
    expect(await leftRunning(run.pid, seen)).toEqual([]);
    // A copy of the signal (Ctrl-C reaches pnpm, which forwards it) was not taken for a second one.
    expect(run.output()).not.toContain('stopping now');
    expect(await storedCall(url, dir, id)).toBe(true);
  } finally {
    killAll(run.pid, seen);
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs = (command: Command, work: () => Promise<void>) => (command.build ? withBuildLock(work) : work());

describe.skipIf(process.platform !== 'linux')('stopping by a signal', () => {
  it(
    'pnpm start: SIGTERM to the pnpm process drains, exits 0, leaves nothing running',
    () => runs(pnpmStart, () => drainsOnSignal(pnpmStart, 'SIGTERM', false)),
    240_000,
  );

  it(
    'pnpm start: SIGINT to the pnpm process does the same',
    () => runs(pnpmStart, () => drainsOnSignal(pnpmStart, 'SIGINT', false)),
    240_000,
  );

  it(
    'pnpm start: Ctrl-C (SIGINT to the process group) does the same',
    () => runs(pnpmStart, () => drainsOnSignal(pnpmStart, 'SIGINT', true)),
    240_000,
  );

  it(
    'pnpm weft serve: SIGTERM to the pnpm process does the same',
    () => runs(pnpmWeftServe, () => drainsOnSignal(pnpmWeftServe, 'SIGTERM', false)),
    240_000,
  );

  it('the built weft bin: SIGTERM does the same', () => runs(weftBin, () => drainsOnSignal(weftBin, 'SIGTERM', false)), 240_000);

  it(
    'pnpm start: SIGTERM during the build stops the build, starts nothing, exits 0',
    () =>
      withBuildLock(async () => {
        const dir = mkdtempSync(join(tmpdir(), 'weft-signals-'));
        // TURBO_FORCE: the build runs its tasks instead of restoring them from turbo's cache.
        const run = launch(pnpmStart, { ...serverEnv(dir, `sqlite:${join(dir, 'weft.sqlite')}`), TURBO_FORCE: 'true' });
        let seen: ProcessEntry[] = [];
        try {
          const deadline = Date.now() + START_MS;
          while (!(seen = processTree(run.pid)).some((p) => /\btsc -p\b|\bvite build\b|\brollup -c\b/.test(p.command))) {
            if (Date.now() > deadline || !run.running()) throw new Error(`no build task ran:\n${run.output()}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          process.kill(run.pid, 'SIGTERM');
          expect(await run.exited, run.output()).toEqual({ code: 0, signal: null });
          expect(await leftRunning(run.pid, seen)).toEqual([]);
          expect(run.output()).toContain('weft: stopped during the build; nothing was started');
          expect(run.output()).not.toContain('weft listening');
        } finally {
          killAll(run.pid, seen);
          rmSync(dir, { recursive: true, force: true });
          // The interrupted tasks may have left dist/ half written: restore it from turbo's cache.
          await promisify(execFile)(
            'node_modules/.bin/turbo',
            ['run', 'build', '--filter=@weft/server...', '--filter=@weft/web', '--output-logs=errors-only'],
            {
              cwd: repo,
              env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
            },
          );
        }
      }),
    300_000,
  );
});

describeIfPostgres('stopping by a signal [postgres]', (getUrl) => {
  it.skipIf(process.platform !== 'linux')(
    'pnpm start: SIGTERM to the pnpm process drains, exits 0, leaves nothing running',
    () => runs(pnpmStart, () => drainsOnSignal(pnpmStart, 'SIGTERM', false, getUrl)),
    240_000,
  );
});
