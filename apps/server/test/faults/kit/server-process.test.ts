// The server as a child process from the build: it listens and answers with alice's and bob's
// keys, inherits none of the runner's service URLs, stops gracefully on SIGTERM, is killed when
// it cannot stop (and `exited` says so), and a start that fails says why.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerJson, apiCall } from './api-call.ts';
import { freePort } from './free-port.ts';
import { SERVER_MAIN } from './server-build.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

describe('server process', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // Set in the runner, these must not reach the server (it would refuse to start on them).
    const saved = { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL };
    process.env.DATABASE_URL = 'mysql://would-refuse-to-start';
    process.env.REDIS_URL = 'not a redis url';
    try {
      server = await startServerProcess();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 300_000);
  afterAll(() => server?.stop());

  it("runs the built main.js with node on its own SQLite file, not the runner's DATABASE_URL, and answers /health", async () => {
    expect(readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')).toEqual([process.execPath, SERVER_MAIN, '']);
    expect(answerJson(await server.call('/health'), 'health')).toEqual({ status: 'ok', database: 'ok' });
    expect(server.logLines().find((l) => l.msg === 'weft listening')).toMatchObject({ url: server.url, database: 'sqlite' });
    expect(server.databaseUrl).toBe(`sqlite:${server.dir}/weft.sqlite`);
  });

  it("calls as alice by default; bob's key and no key are told apart", async () => {
    const obj = { obj: { project_id: 'acme/kit', object_id: 'probe', val: { b: 1, a: 2 } } };
    expect(await server.call('/obj/create', obj)).toMatchObject({ kind: 'answer', status: 200 });
    expect(await server.call('/obj/create', obj, { key: server.bobKey })).toMatchObject({ status: 403 });
    expect(await server.call('/obj/create', obj, { key: '' })).toMatchObject({ status: 401 });
  });

  it('a refused connection comes back as a failure, not a throw', async () => {
    expect(await apiCall(`http://127.0.0.1:${await freePort()}`, '/health')).toMatchObject({ kind: 'failure', code: 'ECONNREFUSED' });
  });

  it('stop() is SIGTERM: a graceful stop, exit code 0, its dir removed', async () => {
    const exit = await server.stop();
    expect(exit, `${server.stdout()}\n${server.stderr()}`).toEqual({ code: 0, signal: null });
    expect(server.alive()).toBe(false);
    expect(server.logLines().some((l) => l.msg === 'shutting down: finishing requests in flight')).toBe(true);
    expect(existsSync(server.dir)).toBe(false);
  });
});

describe('server process exits', () => {
  it('stop() kills a server that does not stop within its bound, and exited shows how it died', async () => {
    const server = await startServerProcess();
    process.kill(server.pid, 'SIGSTOP'); // SIGTERM stays pending on a stopped process
    // The kernel accepts the connection, nothing answers: the client's deadline ends the call.
    expect(await server.call('/health', undefined, { timeoutMs: 300 })).toMatchObject({ kind: 'failure', code: 'timeout' });
    expect(await server.stop({ timeoutMs: 500 })).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(server.alive()).toBe(false);
  });

  it('a server that cannot start rejects with its stderr', async () => {
    await expect(startServerProcess({ env: { DATABASE_URL: 'mysql://nope' } })).rejects.toThrow(/DATABASE_URL must be/);
  });
});
