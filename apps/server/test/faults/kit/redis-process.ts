// A redis-server of the test's own (its port, its directory, nothing kept on disk), for faults
// the shared Redis must never suffer: paused (SIGSTOP: connections stay open, nothing answers),
// killed (SIGKILL: connections drop, the port refuses) and started again on the same port,
// empty, as a Redis without persistence comes back.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onProcessExit, signalQuietly } from './exit-cleanup.ts';
import { freePort } from './free-port.ts';
import { describeWhenAvailable, requiredByEnv, type Availability } from './skip-loudly.ts';
import { within } from './wait-for.ts';

export type RedisState = 'running' | 'paused' | 'killed' | 'destroyed';

export interface RedisProcess {
  readonly port: number;
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly state: RedisState;
  /** Its working directory (where it would write, were saving on). */
  readonly dir: string;
  readonly pid: number | undefined;
  /** Starts it again (after kill()) on the same port. */
  start(): Promise<void>;
  pause(): void;
  resume(): void;
  /** SIGKILL; resolves once it has exited. */
  kill(): Promise<void>;
  /** What redis-server printed, every run so far. */
  output(): string;
  destroy(): Promise<void>;
}

let availability: Availability | undefined;

export function redisServerAvailability(): Availability {
  if (!availability) {
    try {
      execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
      availability = { available: true };
    } catch {
      availability = { available: false, reason: 'redis-server is not installed (Debian: apt-get install redis-server)' };
    }
  }
  return availability;
}

/** A suite that needs its own redis-server: skipped loudly without one, failing under WEFT_REQUIRE_REDIS=1. */
export function describeWithRedisProcess(name: string, body: () => void): void {
  describeWhenAvailable(name, redisServerAvailability(), requiredByEnv('WEFT_REQUIRE_REDIS'), body);
}

export async function startRedisProcess(): Promise<RedisProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-redis-'));
  let child: ChildProcess | undefined;
  let state: RedisState = 'killed';
  let output = '';
  let port = 0;
  const unregister = onProcessExit(() => {
    signalQuietly(child?.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const launch = async (): Promise<void> => {
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    let exited = false;
    let run = ''; // this run's output: an earlier run's "Ready" line must not count
    const ready = new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d.toString();
        run += d.toString();
        if (run.includes('Ready to accept connections')) resolve();
      };
      proc.stdout.on('data', onData);
      proc.stderr.on('data', onData);
      proc.once('exit', (code, signal) => {
        exited = true;
        reject(new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${run.slice(-2000)}`));
      });
    });
    try {
      await within(ready, 15_000, 'redis-server to be ready');
      state = 'running';
    } catch (err) {
      if (!exited) proc.kill('SIGKILL');
      throw err;
    }
  };

  const exitOf = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  try {
    // The chosen port can be taken before redis-server binds it: choose again.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await launch();
        break;
      } catch (err) {
        if (attempt >= 3 || !/Address already in use/i.test((err as Error).message)) throw err;
      }
    }
  } catch (err) {
    unregister();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  const redis: RedisProcess = {
    dir,
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    get state() {
      return state;
    },
    get pid() {
      return state === 'running' || state === 'paused' ? child?.pid : undefined;
    },
    async start() {
      if (state !== 'killed') throw new Error(`start() on a redis-server that is ${state}`);
      await launch();
    },
    pause() {
      if (state !== 'running') throw new Error(`pause() on a redis-server that is ${state}`);
      child!.kill('SIGSTOP');
      state = 'paused';
    },
    resume() {
      if (state !== 'paused') throw new Error(`resume() on a redis-server that is ${state}`);
      child!.kill('SIGCONT');
      state = 'running';
    },
    async kill() {
      if (state !== 'running' && state !== 'paused') return;
      const proc = child!;
      proc.kill('SIGKILL'); // a stopped process dies of SIGKILL too
      await within(exitOf(proc), 10_000, 'redis-server to exit');
      state = 'killed';
    },
    output: () => output,
    async destroy() {
      if (state === 'destroyed') return;
      await redis.kill();
      state = 'destroyed';
      unregister();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return redis;
}
