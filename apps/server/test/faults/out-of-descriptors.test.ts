// The listening socket cannot accept (EMFILE: the process is out of file descriptors, here by a
// limit lowered on the running process): connections past the limit are closed at once (libuv
// accepts and closes them; should Node report the failure instead, the listening socket's 'error'
// listener logs it rather than the process ending), the process lives, and once connections close
// it accepts and serves again.
import { execFileSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRecovers, FAULT_ENV } from './fault-checks.ts';
import { startServerProcess, type ServerProcess } from './kit/server-process.ts';
import { waitFor } from './kit/wait-for.ts';
import { readdirSync } from 'node:fs';

describe('out of file descriptors', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ env: FAULT_ENV });
  }, 300_000);
  afterAll(() => server?.stop());

  it('closes the connections it cannot accept, lives, and serves again once connections close', async () => {
    const open = readdirSync(`/proc/${server.pid}/fd`).length;
    const before = execFileSync('prlimit', ['--pid', String(server.pid), '--nofile', '--raw', '--noheadings', '--output=SOFT,HARD'], {
      encoding: 'utf8',
    })
      .trim()
      .split(/\s+/);
    execFileSync('prlimit', ['--pid', String(server.pid), `--nofile=${open + 20}:${before[1]}`]);
    const { port } = new URL(server.url);
    const sockets: Socket[] = [];
    try {
      const refused = await waitFor(
        async () => {
          for (let i = 0; i < 10; i++) {
            const socket = connect(Number(port), '127.0.0.1');
            socket.on('error', () => undefined);
            sockets.push(socket);
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
          return sockets.filter((s) => s.destroyed).length;
        },
        { timeoutMs: 20_000, intervalMs: 20, what: 'connections past the descriptor limit to be closed' },
      );
      expect(refused).toBeGreaterThan(0);
      expect(server.alive()).toBe(true);
    } finally {
      for (const s of sockets) s.destroy();
    }
    execFileSync('prlimit', ['--pid', String(server.pid), `--nofile=${before[0]}:${before[1]}`]);
    await expectRecovers(server, 'acme/descriptors', 'running out of file descriptors');
  }, 60_000);
});
