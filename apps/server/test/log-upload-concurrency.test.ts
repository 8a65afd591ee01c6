// A trajectory log that is still uploading must not hold the database: on SQLite every request
// shares one connection, so a slow client would otherwise stall the whole server.
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server.close());

it('answers other requests while a log body is half uploaded, then stores the log', async () => {
  const model = await server.client({ scheme: 'bearer', apiKey: server.aliceKey }).POST('/v1/preview/models', {
    body: { entity: 'acme', project: 'rl', name: 'slow-client', base_model: 'OpenPipe/Qwen3-14B-Instruct', return_existing: true },
  });
  const trajectories = Array.from({ length: 50 }, (_, i) => ({
    reward: i % 2,
    messages_and_choices: [{ role: 'user', content: 'x'.repeat(2000) }],
  }));
  const body = Buffer.from(JSON.stringify({ trajectory_groups: [{ trajectories }], split: 'train' }));
  const half = Math.floor(body.length / 2);

  const { port, hostname } = new URL(server.url);
  // The rest of the body is sent only once the other request has been answered (or failed to be).
  let sendRest: () => void = () => undefined;
  let begun: () => void = () => undefined;
  const uploadBegun = new Promise<void>((resolve) => (begun = resolve));
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: `/v1/preview/models/${model.id}/log`,
        headers: { authorization: `Bearer ${server.aliceKey}`, 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    // The first half is on the wire once its write callback runs.
    req.write(body.subarray(0, half), () => begun());
    sendRest = () => req.end(body.subarray(half));
  });

  await uploadBegun;
  const started = Date.now();
  try {
    const other = await server.client().POST('/objs/query', { body: { project_id: 'acme/other' }, signal: AbortSignal.timeout(1000) });
    expect(other).toEqual({ objs: [] });
    expect(Date.now() - started).toBeLessThan(1000);
  } finally {
    sendRest();
  }

  const done = await answer;
  expect(done.status).toBe(200);
  expect(JSON.parse(done.text)).toMatchObject({ trajectory_count: 50, metrics: { 'train/reward': 0.5 } });
});
