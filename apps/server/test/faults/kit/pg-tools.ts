// Where PostgreSQL's server programs are and how to run them for a throwaway cluster. Debian
// keeps them in /usr/lib/postgresql/<major>/bin (off the PATH); the newest major there is used,
// else WEFT_PG_BINDIR, else initdb on the PATH. PostgreSQL refuses to run as root, and CI runs
// as root: there every program runs as the `postgres` OS user through `runuser`.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import type { Availability } from './skip-loudly.ts';

const execFileAsync = promisify(execFile);
const isRoot = process.getuid?.() === 0;

function findBinDir(): string | { reason: string } {
  const fromEnv = process.env.WEFT_PG_BINDIR;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : { reason: `WEFT_PG_BINDIR=${fromEnv} holds no initdb` };
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0]) return join(debian, majors[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb'))) return dir;
  }
  return { reason: 'initdb not found (no /usr/lib/postgresql/*/bin, no WEFT_PG_BINDIR, none on the PATH)' };
}

export interface PgTools {
  binDir: string;
  /** uid and gid the cluster's files must belong to (the postgres user when we are root). */
  owner?: { uid: number; gid: number };
  /** Runs a PostgreSQL program (initdb, pg_ctl, …) as the cluster's owner; rejects with its output. */
  run(program: string, args: string[], opts?: { cwd?: string; timeoutMs?: number }): Promise<string>;
  /** The same, synchronously: for process-exit cleanup. */
  runSync(program: string, args: string[], opts?: { cwd?: string; timeoutMs?: number }): string;
}

function command(tools: { binDir: string }, program: string, args: string[]): [string, string[]] {
  const bin = join(tools.binDir, program);
  return isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

let cached: { tools: PgTools } | { reason: string } | undefined;

function locate(): { tools: PgTools } | { reason: string } {
  const binDir = findBinDir();
  if (typeof binDir !== 'string') return binDir;
  let owner: PgTools['owner'];
  if (isRoot) {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      owner = { uid: id('-u'), gid: id('-g') };
      execFileSync('runuser', ['--help'], { stdio: 'ignore' });
    } catch {
      return { reason: 'running as root, but there is no `postgres` OS user or no runuser to run PostgreSQL as' };
    }
  }
  const tools: PgTools = {
    binDir,
    owner,
    async run(program, args, opts = {}) {
      const [file, argv] = command(tools, program, args);
      try {
        const { stdout, stderr } = await execFileAsync(file, argv, { cwd: opts.cwd, timeout: opts.timeoutMs ?? 120_000, encoding: 'utf8' });
        return stdout + stderr;
      } catch (err) {
        const e = err as Error & { stdout?: string; stderr?: string };
        throw new Error(`${program} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
      }
    },
    runSync(program, args, opts = {}) {
      const [file, argv] = command(tools, program, args);
      return execFileSync(file, argv, { cwd: opts.cwd, timeout: opts.timeoutMs ?? 30_000, encoding: 'utf8', stdio: 'pipe' });
    },
  };
  return { tools };
}

/** Whether a throwaway cluster can be made here, and why not. Checked once. */
export function pgToolsAvailability(): Availability {
  cached ??= locate();
  return 'tools' in cached ? { available: true } : { available: false, reason: cached.reason };
}

export function pgTools(): PgTools {
  cached ??= locate();
  if (!('tools' in cached)) throw new Error(cached.reason);
  return cached.tools;
}
