// The router scenario's floor must relay what the router relays, or its figures compare unlike
// work: the JSON answer rewritten as the router rewrites it, a stream's events passed through.
import { once } from 'node:events';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { post } from '../router/closed-loop.ts';
import { bareProxyServer } from './bare-proxy.ts';
import { spawnServer, type ServerProcess } from './spawn.ts';

let upstream: ServerProcess;
let proxy: ReturnType<typeof bareProxyServer>;
let url: string;
const agent = new Agent({ keepAlive: true });

beforeAll(async () => {
  upstream = await spawnServer('fake-llm', { BENCH_STREAM_CHUNKS: '3', BENCH_STREAM_GAP_MS: '1' });
  proxy = bareProxyServer(`${upstream.url}/v1`, 'upstream-model');
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/chat/completions`;
});

afterAll(async () => {
  agent.destroy();
  proxy.closeAllConnections();
  proxy.close();
  await upstream.stop();
});

const headers = { 'content-type': 'application/json' };

test('a JSON answer comes back with the asked model and the provider, the upstream saw its own model name', async () => {
  const { status, text } = await post(agent, new URL(url), headers, JSON.stringify({ model: 'bench/router-model', messages: [] }));
  expect(status).toBe(200);
  const answer = JSON.parse(text) as { model: string; provider: string; choices: unknown[]; usage: unknown };
  expect(answer.model).toBe('bench/router-model');
  expect(answer.provider).toBe('bench');
  expect(answer.choices).toHaveLength(1);
  expect(answer.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
});

test('a stream is passed through event by event, ending with [DONE]', async () => {
  const body = JSON.stringify({ model: 'bench/router-model', messages: [], stream: true, stream_options: { include_usage: true } });
  const { status, text } = await post(agent, new URL(url), headers, body);
  expect(status).toBe(200);
  const events = text.split('\n\n').filter(Boolean);
  // The role chunk, 3 content chunks, the finish, the usage, [DONE]: the upstream's own events.
  expect(events).toHaveLength(7);
  expect(events.at(-1)).toBe('data: [DONE]');
  expect(JSON.parse(events[0]!.slice('data: '.length)).model).toBe('upstream-model');
});
