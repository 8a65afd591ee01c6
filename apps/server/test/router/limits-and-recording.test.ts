// The router file's limits and `record_calls`, through the whole server path: ROUTER_CONFIG read
// at start, the key's and the project's limits checked before a request is routed and charged
// after its answer, refusals in OpenAI's shape with Retry-After, and a router that records nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { completion, startFakeUpstream, usageOf, type FakeUpstream } from '@weft/router/testing';
import { startTestServer, type TestServer } from '../test-server.ts';

const messages = [{ role: 'user' as const, content: 'Say hello' }];

function routerFile(upstream: FakeUpstream, extra: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'weft-router-limits-')), 'router.yaml');
  writeFileSync(
    file,
    `${extra}
providers:
  up:
    base_url: ${upstream.base_url}
models:
  - id: cheap
    context_length: 8192
    endpoints:
      - provider: up
        pricing: {}
  - id: dear
    context_length: 8192
    endpoints:
      - provider: up
        pricing: { prompt: '0.001', completion: '0.001' }
`,
  );
  return file;
}

const client = (server: TestServer, project: string) =>
  new OpenAI({ baseURL: `${server.url}/inference/router/gateway`, apiKey: server.aliceKey, project, maxRetries: 0 });

describe('router limits from the router file', () => {
  let upstream: FakeUpstream;
  let server: TestServer;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Every answer: 10 prompt and 5 completion tokens (15 tokens: 0.015 USD on `dear`).
    upstream.setDefault({ kind: 'json', body: completion('Hello', { usage: usageOf(10, 5) }) });
    const limits = 'limits:\n  per_project:\n    requests_per_min: 3\n    budget_usd_per_day: 0.03\n';
    server = await startTestServer('sqlite', { ROUTER_CONFIG: routerFile(upstream, limits) });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('a project over its requests per minute is refused with 429 in OpenAI shape and Retry-After, before the upstream is called', async () => {
    const openai = client(server, 'acme/rate');
    for (let i = 0; i < 3; i++) await openai.chat.completions.create({ model: 'cheap', messages });
    const sent = upstream.requests.length;
    const refused = await openai.chat.completions.create({ model: 'cheap', messages }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    const error = refused as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);
    expect(upstream.requests.length).toBe(sent);
  });

  test("a project over its day's budget is refused once its answers' exact cost reaches it", async () => {
    const openai = client(server, 'acme/budget');
    // 0.015 then 0.030 USD spent, each admitted under 0.03: the third finds the budget reached.
    await openai.chat.completions.create({ model: 'dear', messages });
    const second = await openai.chat.completions.create({ model: 'dear', messages });
    expect((second.usage as { cost?: number }).cost).toBe(0.015);
    const refused = (await openai.chat.completions.create({ model: 'dear', messages }).catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.APIError
    >;
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ type: 'budget_exceeded', code: 'daily_budget_exceeded' });
    // Another project has its own budget.
    await expect(client(server, 'acme/other').chat.completions.create({ model: 'dear', messages })).resolves.toBeTruthy();
  });
});

describe('record_calls: false', () => {
  let upstream: FakeUpstream;
  let server: TestServer;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    server = await startTestServer('sqlite', { ROUTER_CONFIG: routerFile(upstream, 'record_calls: false\n') });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('routes the request and records no call', async () => {
    const { data, response } = await client(server, 'acme/unrecorded').chat.completions.create({ model: 'cheap', messages }).withResponse();
    expect(data.choices[0]?.message.content).toBe('Hello');
    expect(response.headers.get('x-weft-call-id')).toBeNull();
    // Nothing was queued for the store: the recorder was never asked (request-handle.test.ts).
    expect(upstream.requests).toHaveLength(1);
  });
});
