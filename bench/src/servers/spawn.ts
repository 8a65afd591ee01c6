// Starts a server (Weft: serve-built.mjs; the baselines: serve.ts) as a child process on a free port of 127.0.0.1, learns its URL,
// and measures its memory from /proc: the peak resident set (VmHWM) since a reset, and the
// largest VmRSS seen by sampling, whichever is higher.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('../../', import.meta.url));

export type ServerKind = 'weft' | 'http' | 'express' | 'express-sql' | 'proxy' | 'fake-llm';

export interface ServerProcess {
  url: string;
  pid: number;
  /** Resets the peak, then samples until the returned function is called; it resolves the peak in MB. */
  trackPeakRss(): () => number;
  /** Current resident set, MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

export function spawnServer(kind: ServerKind, env: Record<string, string>): Promise<ServerProcess> {
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child: ChildProcess = spawn(
    process.execPath,
    kind === 'weft'
      ? [...profile, 'src/servers/serve-built.mjs']
      : kind === 'fake-llm'
        ? ['src/servers/fake-llm.mjs']
        : [...profile, '--conditions=@weft/source', '--import', 'tsx', 'src/servers/serve.ts', kind],
    {
      cwd: benchDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${kind} server did not start within 60 s`)), 60_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${err.message}\n${stderr}`));
    };
    child.once('exit', (code) => fail(new Error(`${kind} server exited with ${code}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.once('exit', (code, signal) => {
        if (signal !== 'SIGTERM' && code !== 0) process.stderr.write(`\n${kind} server died (${code ?? signal}):\n${stderr}\n`);
      });
      const { url } = JSON.parse(line) as { url: string };
      resolve(handle(kind, child, url));
    });
  });
}

function handle(kind: ServerKind, child: ChildProcess, url: string): ServerProcess {
  const pid = child.pid!;
  const status = (field: 'VmRSS' | 'VmHWM'): number => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  };
  return {
    url,
    pid,
    rssMb: () => status('VmRSS'),
    trackPeakRss() {
      // "5" resets VmHWM to the current RSS (Linux ≥ 4.0, our own child). Sampling covers a
      // kernel where that is refused.
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        /* sampled peak only */
      }
      let peak = status('VmRSS');
      const timer = setInterval(() => {
        peak = Math.max(peak, status('VmRSS'));
      }, 20);
      return () => {
        clearInterval(timer);
        return Math.max(peak, status('VmRSS'), status('VmHWM'));
      };
    },
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(kill);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}
