// `pnpm start`, as the README tells a new user: it builds, then runs the built JavaScript with node
// as the foreground process (no turbo wrapper). Ctrl-C (SIGINT to the terminal's process group)
// reaches the server, which stops gracefully (signals.test.ts: requests in flight, exit codes).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { withBuildLock } from './build-lock.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

it('pnpm start runs the build with node, serves, and stops gracefully on Ctrl-C', () => withBuildLock(startAndStop), 180_000);

async function startAndStop(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-start-'));
  // detached: its own process group, which is what a terminal's Ctrl-C signals.
  const child = spawn('pnpm', ['start'], {
    cwd: repo,
    detached: true,
    env: { ...process.env, PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = Date.now() + 120_000;
    let url: string | undefined;
    while (!url) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
      url = /"url":"(http:[^"]+)"[^\n]*weft listening/.exec(output)?.[1];
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', database: 'ok' });
    // The built JavaScript runs, not TypeScript through a loader.
    expect(output).toContain('"msg":"weft listening"');
    process.kill(-child.pid!, 'SIGINT');
    await exited;
    expect(output).toContain('"signal":"SIGINT","msg":"shutting down: finishing requests in flight"');
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    // No turbo banner around the server's own output.
    expect(output).not.toMatch(/Tasks:|Cached:|turbo \d/);
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
