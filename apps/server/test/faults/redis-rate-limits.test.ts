// The Redis of the shared rate limits falls silent (SIGSTOP of a redis-server of the test's own)
// and then dies: rate-limited requests never wait for it (each process limits alone at once),
// /ready reports it in its body but stays 200, weft_redis_up says 0, one log line says so; when
// Redis answers again the limits are shared again, and that is logged once too.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiOutcome } from './kit/api-call.ts';
import { FAULT_ENV } from './fault-checks.ts';
import { describeWithRedisProcess, startRedisProcess, type RedisProcess } from './kit/redis-process.ts';
import { startServerProcess, type ServerProcess } from './kit/server-process.ts';
import { waitFor } from './kit/wait-for.ts';

/** Each rate-limited request's time while Redis is away: well under a command timeout's worth of them. */
const FAST_MS = 500;

describeWithRedisProcess('the rate limits’ Redis fails', () => {
  let redis: RedisProcess;
  let server: ServerProcess;

  beforeAll(async () => {
    redis = await startRedisProcess();
    server = await startServerProcess({
      env: { ...FAULT_ENV, REDIS_URL: redis.url, RATE_LIMIT_QUERY: '100000/s', RATE_LIMIT_INGEST: '100000/s' },
    });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await redis?.destroy();
  });

  const query = () => server.call('/objs/query', { project_id: 'acme/limits', limit: 1 });
  const readyBody = async () => {
    const o = await server.call('/ready');
    return o.kind === 'answer' ? { status: o.status, body: JSON.parse(o.text) as { redis?: string } } : undefined;
  };
  const redisUp = async () => {
    const o = await server.call('/metrics');
    return o.kind === 'answer' ? /^weft_redis_up (\d)/m.exec(o.text)?.[1] : undefined;
  };
  const logged = (msg: RegExp) => server.logLines().filter((l) => msg.test(String(l.msg))).length;

  async function expectFast(what: string): Promise<void> {
    const answers: ApiOutcome[] = [];
    for (let i = 0; i < 10; i++) answers.push(await query());
    expect(
      answers.map((a) => (a.kind === 'answer' ? a.status : a.code)),
      what,
    ).toEqual(Array(10).fill(200));
    expect(Math.max(...answers.map((a) => a.ms)), what).toBeLessThan(FAST_MS);
  }

  it('shares the budget while Redis answers', async () => {
    await expectFast('Redis up');
    expect(await readyBody()).toEqual({ status: 200, body: expect.objectContaining({ status: 'ready', redis: 'ok' }) as unknown });
    expect(await redisUp()).toBe('1');
  });

  it('never waits for a silent Redis, reports it, and shares again once it answers', async () => {
    const [down, up] = [logged(/Redis is unreachable/), logged(/Redis answers/)];
    redis.pause();
    try {
      await expectFast('Redis silent');
      expect(await readyBody()).toEqual({
        status: 200,
        body: expect.objectContaining({ status: 'ready', redis: 'unreachable' }) as unknown,
      });
      expect(await redisUp()).toBe('0');
      expect(logged(/Redis is unreachable/)).toBe(down + 1);
    } finally {
      redis.resume();
    }
    await waitFor(async () => (await readyBody())?.body.redis === 'ok', {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'Redis to be used again',
    });
    expect(logged(/Redis answers/)).toBe(up + 1);
    await expectFast('Redis back');
  }, 60_000);

  it('limits alone while Redis is dead, and shares again once it is restarted', async () => {
    const [down, up] = [logged(/Redis is unreachable/), logged(/Redis answers/)];
    await redis.kill();
    await expectFast('Redis dead');
    await waitFor(async () => (await readyBody())?.body.redis === 'unreachable', { timeoutMs: 5_000, what: 'Redis reported unreachable' });
    expect(server.alive()).toBe(true);
    await redis.start();
    await waitFor(async () => (await readyBody())?.body.redis === 'ok', {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'Redis to be used again',
    });
    await expectFast('Redis restarted');
    // One line each way, however many reconnection attempts failed meanwhile.
    expect(logged(/Redis is unreachable/)).toBe(down + 1);
    expect(logged(/Redis answers/)).toBe(up + 1);
  }, 60_000);
});
