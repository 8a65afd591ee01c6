// The server as an operator installs it (README, "Install from a tarball"): `pnpm pack:server`,
// then `npm install -g` of the tarball into a prefix outside the workspace (its dependencies from
// the npm registry, better-sqlite3's addon included), then `weft serve` in an empty directory,
// with none of the workspace's environment. It must serve the API on SQLite under ./data and
// Studio at `/`, and name its version and commit. The systemd unit is checked against that bin.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withBuildLock } from './build-lock.ts';
import { describeWhenAvailable, requiredByEnv, type Availability } from './faults/kit/skip-loudly.ts';

const execFileAsync = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(repo, 'apps/server/package.json'), 'utf8')) as { version: string };

/** The environment of a shell on a machine without the workspace: no test settings, no loader flags. */
function plainEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TMPDIR']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...extra };
}

/**
 * better-sqlite3 installs from the registry as it does anywhere, and its install script runs;
 * that script's prebuild-install first looks for a local prebuild (its documented
 * npm_config_<package>_local_prebuilds), which is given here: the addon `pnpm install` compiled
 * in the workspace, for this very version and Node. Without it, where the prebuilt download is not
 * reachable, the script compiles SQLite again, minutes on 2 busy cores for nothing this test checks.
 */
function betterSqlitePrebuild(): Record<string, string> {
  const pkgJson = createRequire(join(repo, 'packages/store/package.json')).resolve('better-sqlite3/package.json');
  const { version: sqliteVersion } = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string };
  const prebuilds = join(work, 'prebuilds');
  mkdirSync(prebuilds);
  const name = `better-sqlite3-v${sqliteVersion}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['czf', join(prebuilds, name), '-C', dirname(pkgJson), 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: prebuilds };
}

let work: string;
let weftBin: string;
/** HEAD when the tarball was packed: what the installed server must name. */
let packedCommit: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'weft-server-pack-'));
  packedCommit = (await execFileAsync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: repo, encoding: 'utf8' })).stdout.trim();
  const out = join(work, 'tarball');
  // `pnpm -s`: the tarball's path alone on stdout, as a script captures it.
  const { stdout } = await withBuildLock(() =>
    execFileAsync('pnpm', ['-s', 'pack:server', '--out', out], { cwd: repo, encoding: 'utf8', maxBuffer: 16 << 20 }),
  );
  const tarball = stdout.trim();
  expect(tarball).toBe(join(out, `weft-server-${version}.tgz`));
  expect(readdirSync(out)).toEqual([`weft-server-${version}.tgz`]);
  const prefix = join(work, 'prefix');
  await execFileAsync(
    'npm',
    ['install', '-g', '--prefix', prefix, tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    { cwd: work, encoding: 'utf8', env: { ...process.env, ...betterSqlitePrebuild() } },
  );
  weftBin = join(prefix, 'bin', 'weft');
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

it('weft --version names the package version and the commit it was packed from', async () => {
  expect(packedCommit).toMatch(/^[0-9a-f]{12}$/);
  const { stdout } = await execFileAsync(weftBin, ['--version'], { cwd: work, encoding: 'utf8', env: plainEnv({}) });
  expect(stdout).toBe(`${version} (commit ${packedCommit})\n`);
});

describe('weft serve in an empty directory', () => {
  let run: string;
  let child: ChildProcess;
  let output = '';
  let url: string;
  let key: string;

  beforeAll(async () => {
    run = join(work, 'run');
    mkdirSync(run);
    child = spawn(weftBin, ['serve'], {
      cwd: run,
      env: plainEnv({ PORT: '0', NODE_ENV: 'production' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Ready when it logs where it listens: waited for on its output, with a deadline.
    [url, key] = await new Promise<[string, string]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`weft serve did not start:\n${output}`)), 150_000);
      const seen = (d: Buffer) => {
        output += d.toString();
        const listening = /"url":"(http:[^"]+)"[^\n]*weft listening/.exec(output)?.[1];
        const created = /created a local API key[^\n]*\n\n\s+(\S+)\n/.exec(output)?.[1];
        if (listening && created) {
          clearTimeout(timer);
          resolve([listening, created]);
        }
      };
      child.stdout!.on('data', seen);
      child.stderr!.on('data', seen);
      child.once('exit', (code) => reject(new Error(`weft serve exited with ${code}:\n${output}`)));
    });
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  });

  const auth = () => ({ authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}`, 'content-type': 'application/json' });

  it('keeps its SQLite database and local key under ./data', () => {
    expect(existsSync(join(run, 'data', 'weft.sqlite'))).toBe(true);
    expect(existsSync(join(run, 'data', 'auth.yaml'))).toBe(true);
  });

  it('reports its version and commit on /server_info and /metrics', async () => {
    const info = await fetch(`${url}/server_info`, { headers: auth() });
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({
      min_required_weave_python_version: expect.any(String),
      trace_server_version: version,
      commit: packedCommit,
      key_scope: 'admin',
      svc_user_id: 'local',
    });
    const metrics = await (await fetch(`${url}/metrics`, { headers: auth() })).text();
    expect(metrics).toContain(`weft_build_info{version="${version}",commit="${packedCommit}",node="${process.versions.node}"} 1`);
  });

  it('serves Weft Studio at /', async () => {
    const res = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    // The very page `pnpm build` made, and the script it loads.
    const html = await res.text();
    expect(html).toBe(readFileSync(join(repo, 'apps/web/dist/index.html'), 'utf8'));
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${url}${script}`)).status).toBe(200);
  });

  it('writes and reads back with its key, and refuses without one', async () => {
    const body = { obj: { project_id: 'acme/packed', object_id: 'prompt', val: { system: 'Be brief.' } } };
    const created = await fetch(`${url}/obj/create`, { method: 'POST', headers: auth(), body: JSON.stringify(body) });
    expect(created.status).toBe(200);
    const { digest } = (await created.json()) as { digest: string };
    const read = await fetch(`${url}/obj/read`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ project_id: 'acme/packed', object_id: 'prompt', digest }),
    });
    expect(((await read.json()) as { obj: { val: unknown } }).obj.val).toEqual({ system: 'Be brief.' });
    expect((await fetch(`${url}/server_info`)).status).toBe(401);
  });

  /** The installed bin run in the server's directory, as an operator would beside it. */
  const weft = async (args: string[], env: Record<string, string> = {}) =>
    execFileAsync(weftBin, args, { cwd: run, encoding: 'utf8', env: plainEnv(env) }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({
        code: err.code ?? -1,
        stdout: err.stdout ?? '',
        stderr: err.stderr ?? '',
      }),
    );

  it('weft config prints the settings it runs with and where each came from', async () => {
    const out = await weft(['config'], { PORT: '9999' });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^PORT\s+9999\s+env$/m);
    expect(out.stdout).toMatch(/^DATA_DIR\s+\S*data\s+default$/m);
  });

  it('weft migrate status lists every migration as applied', async () => {
    const out = await weft(['migrate', 'status']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^applied\s+0001-initial\b/m);
    expect(out.stdout).toMatch(/: \d+ applied, 0 pending\n$/);
  });

  it('weft backup copies the running database, and weft restore brings it back into an empty one', async () => {
    const file = join(work, 'backup.sqlite');
    const backup = await weft(['backup', '--out', file]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^SHA-256: [0-9a-f]{64}$/m);
    const target = `sqlite:${join(work, 'restored.sqlite')}`;
    const restore = await weft(['restore', '--from', file], { DATABASE_URL: target });
    expect(restore.code, restore.stderr).toBe(0);
    // The restored database holds what the server had: its migrations, and a second restore is refused (not empty).
    expect((await weft(['migrate', 'status'], { DATABASE_URL: target })).stdout).toMatch(/: \d+ applied, 0 pending\n$/);
    const again = await weft(['restore', '--from', file], { DATABASE_URL: target });
    expect(again.code).toBe(1);
  });

  it('stops gracefully on SIGTERM to its PID', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    process.kill(child.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('shutting down: finishing requests in flight');
  });
});

function systemdAnalyze(): Availability {
  const found = (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, 'systemd-analyze')));
  return found ? { available: true } : { available: false, reason: 'systemd-analyze is not installed on this machine' };
}

describeWhenAvailable('the systemd unit (apps/server/deploy/weft.service)', systemdAnalyze(), requiredByEnv('WEFT_REQUIRE_SYSTEMD'), () => {
  const unit = readFileSync(join(repo, 'apps/server/deploy/weft.service'), 'utf8');

  /** systemd-analyze's findings: it exits 0 on unknown keys, so anything it prints counts too. */
  async function verify(text: string): Promise<string> {
    const dir = mkdtempSync(join(work, 'unit-'));
    writeFileSync(join(dir, 'weft.service'), text);
    try {
      const { stdout, stderr } = await execFileAsync('systemd-analyze', ['verify', join(dir, 'weft.service')], {
        cwd: dir,
        encoding: 'utf8',
      });
      return stdout + stderr;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      return `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message;
    }
  }

  it('verifies cleanly, run as the bin the tarball installed', async () => {
    expect(unit).toContain('ExecStart=/usr/local/bin/weft serve');
    expect(await verify(unit.replace('/usr/local/bin/weft', weftBin))).toBe('');
  });

  it('is a check that finds mistakes: a misspelt key and a missing command', async () => {
    expect(await verify(unit.replace('/usr/local/bin/weft', weftBin).replace('Restart=', 'Restrat='))).toMatch(/Unknown key.*Restrat/);
    expect(await verify(unit.replace('/usr/local/bin/weft', join(work, 'no-such-weft')))).toMatch(/not executable/);
  });
});
