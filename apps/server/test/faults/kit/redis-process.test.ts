// The test-owned redis-server: it answers, pause() silences it with connections open, resume()
// answers what waited, kill() drops it, start() brings it back empty on the same port.
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedisProcess, startRedisProcess, type RedisProcess } from './redis-process.ts';
import { staysFalse, waitFor } from './wait-for.ts';

function client(url: string): Redis {
  // No reconnects and no queue while offline: each command shows the state of the server.
  const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  redis.on('error', () => {});
  return redis;
}

describeWithRedisProcess('test-owned redis-server', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedisProcess();
  });
  afterAll(() => redis?.destroy());

  it('answers on its own port and keeps no file', async () => {
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(redis.port).not.toBe(6379);
    const c = client(redis.url);
    await c.connect();
    expect(await c.ping()).toBe('PONG');
    expect(await c.config('GET', 'save')).toEqual(['save', '']);
    expect(await c.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    c.disconnect();
  });

  it('pause() keeps the connection open and answers nothing; resume() answers what waited', async () => {
    const c = client(redis.url);
    await c.connect();
    await c.set('k', 'v');
    redis.pause();
    expect(redis.state).toBe('paused');
    let answer: string | null | undefined;
    const pending = c.get('k').then((v) => (answer = v));
    await staysFalse(() => answer !== undefined, { forMs: 300, what: 'an answer from the paused redis-server' });
    expect(c.status).toBe('ready');
    redis.resume();
    await pending;
    expect(answer).toBe('v');
    c.disconnect();
  });

  it('kill() drops connections; start() listens again on the same port, empty', async () => {
    const port = redis.port;
    const c = client(redis.url);
    await c.connect();
    await c.set('k', 'v');
    redis.pause(); // killed while paused, the harder case
    await redis.kill();
    expect(redis.state).toBe('killed');
    await waitFor(() => c.status === 'end', { timeoutMs: 5000, what: 'the client to see the connection end' });
    await expect(tcpConnect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    await redis.start();
    expect(redis.port).toBe(port);
    const again = client(redis.url);
    await again.connect();
    expect(await again.get('k')).toBeNull();
    again.disconnect();
  });

  it('destroy() ends the process, even a paused one, and removes its directory', async () => {
    const other = await startRedisProcess();
    const pid = other.pid!;
    expect(existsSync(other.dir)).toBe(true);
    other.pause();
    await other.destroy();
    expect(existsSync(other.dir)).toBe(false);
    expect(running(pid)).toBe(false);
  });
});

function tcpConnect(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** Running: present in /proc and not a zombie. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}
