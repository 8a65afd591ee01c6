// What the kit starts is cleaned up when the test process exits without cleaning up itself: a
// process of its own starts each piece in its hardest state and exits; nothing may be left.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { pgToolsAvailability } from './pg-tools.ts';
import { redisServerAvailability } from './redis-process.ts';
import { smallDiskAvailability } from './small-disk.ts';

const execFileAsync = promisify(execFile);
const serverDir = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./exit-cleanup.fixture.ts', import.meta.url));

/** Running: present in /proc and not a zombie (exited, its new parent has not reaped it yet). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

const mounted = (dir: string) =>
  readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[1] === dir);

it('a test process that exits without cleaning up leaves no process, mount or directory behind', async () => {
  const pieces = ['server'];
  if (pgToolsAvailability().available) pieces.push('pg');
  if (redisServerAvailability().available) pieces.push('redis');
  if ((await smallDiskAvailability()).available) pieces.push('disk');
  if (pieces.length < 4) console.warn(`exit cleanup checked only for: ${pieces.join(', ')} (the others cannot run here)`);

  type Run = { code?: number | null; stdout?: string; stderr?: string };
  const run: Run = await execFileAsync(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', fixture, ...pieces], {
    cwd: serverDir,
    timeout: 240_000,
  }).then(
    (done) => ({ code: 0, ...done }),
    (err: Run) => err,
  );
  expect(run.code, run.stderr).toBe(3);
  const started = JSON.parse(run.stdout!.trim().split('\n').at(-1)!) as Record<string, { dir: string; pids: number[] }>;
  expect(Object.keys(started).sort()).toEqual([...pieces].sort());

  for (const [piece, { dir, pids }] of Object.entries(started)) {
    expect(pids.filter(running), `${piece}: processes left running`).toEqual([]);
    expect(existsSync(dir), `${piece}: ${dir} left behind`).toBe(false);
    expect(mounted(dir), `${piece}: ${dir} still mounted`).toBe(false);
  }
}, 300_000);
