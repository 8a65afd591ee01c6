// A PostgreSQL cluster of the test's own (initdb into a temp dir, its own port), for faults the
// shared database must never suffer: restarts with `-m fast` and `-m immediate`, a frozen
// postmaster, a low max_connections. Trust auth, listening on 127.0.0.1 only, its socket in its
// own directory. fsync is off: it only matters when the OS or the machine crashes, which no test
// does; synchronous_commit stays on, so a commit acknowledged before `-m immediate` survives it.
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onProcessExit, signalQuietly } from './exit-cleanup.ts';
import { freePort } from './free-port.ts';
import { pgTools, pgToolsAvailability, type PgTools } from './pg-tools.ts';
import { describeWhenAvailable, requiredByEnv } from './skip-loudly.ts';

export type StopMode = 'smart' | 'fast' | 'immediate';

export interface PgCluster {
  readonly port: number;
  readonly dir: string;
  url(database?: string): string;
  start(): Promise<void>;
  stop(mode?: StopMode): Promise<void>;
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  /** SIGSTOP of the postmaster and every backend: connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  readonly frozen: boolean;
  /** The postmaster's pid while the cluster runs. */
  postmasterPid(): number | undefined;
  /** Pids of the postmaster's children (backends and auxiliary processes). */
  childPids(): number[];
  /** Creates a database and answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the cluster (immediate) and removes its directory; safe to call twice. */
  destroy(): Promise<void>;
}

export type PgSettings = Record<string, string | number | boolean>;

/** A suite that needs a throwaway cluster: skipped loudly without initdb, failing under WEFT_REQUIRE_PG=1. */
export function describeWithPgCluster(name: string, body: () => void): void {
  describeWhenAvailable(name, pgToolsAvailability(), requiredByEnv('WEFT_REQUIRE_PG'), body);
}

/** initdb, then start. `settings` go to postgresql.conf (e.g. `{ max_connections: 20 }`). */
export async function createPgCluster(settings: PgSettings = {}): Promise<PgCluster> {
  const tools = pgTools();
  const dir = mkdtempSync(join(tmpdir(), 'weft-pgc-'));
  if (tools.owner) chownSync(dir, tools.owner.uid, tools.owner.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  let port = 0;
  let frozenPids: number[] = [];
  let destroyed = false;

  const pgCtl = (args: string[], timeoutMs = 60_000) => tools.run('pg_ctl', ['-D', data, ...args], { cwd: dir, timeoutMs });
  const postmasterPid = () => livePostmaster(data);
  const childPids = () => {
    const parent = postmasterPid();
    return parent === undefined ? [] : childrenOf(parent);
  };
  const thaw = () => {
    for (const pid of [...frozenPids, ...childPids()]) signalQuietly(pid, 'SIGCONT');
    frozenPids = [];
  };
  const stop = async (mode: StopMode = 'fast') => {
    thaw(); // a stopped postmaster would not hear pg_ctl's signal
    await pgCtl(['-m', mode, '-w', 'stop']);
  };

  const unregister = onProcessExit(() => stopSync(tools, data, dir, postmasterPid, childPids));
  try {
    await tools.run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'], { cwd: dir });
    appendSettings(data, { listen_addresses: '127.0.0.1', unix_socket_directories: dir, fsync: false, ...settings });
    // The chosen port can be taken by another process before postgres binds it: choose again.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      appendSettings(data, { port });
      try {
        await pgCtl(['-l', log, '-w', 'start']);
        break;
      } catch (err) {
        if (attempt >= 3 || !/could not bind|already in use/i.test(readLog(log))) throw withLog(err, log);
      }
    }
  } catch (err) {
    unregister();
    stopSync(tools, data, dir, postmasterPid, childPids);
    throw err;
  }

  const cluster: PgCluster = {
    dir,
    get port() {
      return port;
    },
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await pgCtl(['-l', log, '-w', 'start']).catch((err) => Promise.reject(withLog(err, log)));
    },
    stop,
    async restart(mode) {
      await stop(mode);
      await cluster.start();
    },
    freeze() {
      const parent = postmasterPid();
      if (parent === undefined) throw new Error('freeze(): the cluster is not running');
      // The postmaster first, so that it forks no backend while its children are being stopped.
      signalQuietly(parent, 'SIGSTOP');
      const children = childrenOf(parent);
      for (const pid of children) signalQuietly(pid, 'SIGSTOP');
      frozenPids = [parent, ...children];
    },
    thaw,
    get frozen() {
      return frozenPids.length > 0;
    },
    postmasterPid,
    childPids,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: cluster.url('postgres') });
      await client.connect();
      try {
        await client.query(`create database ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return cluster.url(name);
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      unregister();
      thaw();
      if (postmasterPid() !== undefined) await pgCtl(['-m', 'immediate', '-w', 'stop'], 30_000).catch(() => undefined);
      killAll(postmasterPid, childPids);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/**
 * The pid in postmaster.pid, only while that process runs in `data` (a postmaster's working
 * directory is its data directory): a stale file after a kill must never get another process
 * signalled, least of all the shared cluster's postmaster.
 */
function livePostmaster(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 && readlinkSync(`/proc/${pid}/cwd`) === realpathSync(data) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function appendSettings(data: string, settings: PgSettings): void {
  const line = ([key, value]: [string, string | number | boolean]) =>
    `${key} = ${typeof value === 'string' ? `'${value.replaceAll("'", "''")}'` : typeof value === 'boolean' ? (value ? 'on' : 'off') : value}`;
  // Later lines win in postgresql.conf, so appending overrides initdb's defaults.
  appendFileSync(join(data, 'postgresql.conf'), `\n${Object.entries(settings).map(line).join('\n')}\n`);
}

/** Direct children of `parent`, from /proc (every backend is a child of the postmaster). */
function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) pids.push(Number(entry));
    } catch {
      // The process exited while we listed.
    }
  }
  return pids;
}

function killAll(postmasterPid: () => number | undefined, childPids: () => number[]): void {
  const parent = postmasterPid();
  for (const pid of childPids()) signalQuietly(pid, 'SIGKILL');
  signalQuietly(parent, 'SIGKILL');
}

/** The exit hook and a failed creation: thaw, stop at once, kill what is left, remove the files. */
function stopSync(tools: PgTools, data: string, dir: string, postmasterPid: () => number | undefined, childPids: () => number[]): void {
  for (const pid of [postmasterPid(), ...childPids()]) signalQuietly(pid, 'SIGCONT');
  if (postmasterPid() !== undefined && existsSync(data)) {
    try {
      tools.runSync('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], { cwd: dir, timeoutMs: 15_000 });
    } catch {
      // Killed below.
    }
  }
  killAll(postmasterPid, childPids);
  rmSync(dir, { recursive: true, force: true });
}

function readLog(log: string): string {
  try {
    return readFileSync(log, 'utf8');
  } catch {
    return '';
  }
}

function withLog(err: unknown, log: string): Error {
  return new Error(`${(err as Error).message}\n--- postgres log (end) ---\n${readLog(log).slice(-3000)}`);
}
