// A Weft server whose router serves two fake upstreams (`a` first, then `b`) behind the router
// models of the tests, and the real clients pointed at it: the `openai` npm client and the AI
// SDK's OpenAI-compatible provider (baseURL = Weft's router gateway, a Weft key as the bearer).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import OpenAI from 'openai';
import { createRouter, type Router } from '@weft/router';
import { startFakeUpstream, testRouterConfig, type FakeUpstream, type TestProvider } from '@weft/router/testing';
import { startTestServer, type TestDatabase, type TestServer } from '../test-server.ts';

export const KEY_A = 'sk-upstream-a-0123456789abcdef';
export const KEY_B = 'sk-upstream-b-fedcba9876543210';

export interface RouterKit {
  a: FakeUpstream;
  b: FakeUpstream;
  router: Router;
  server: TestServer;
  gateway: string;
  /** The `openai` client as alice (project acme/router-tests); no client retries unless asked. */
  openai(options?: { maxRetries?: number; apiKey?: string }): OpenAI;
  /** The AI SDK provider as alice. */
  aiSdk(): ReturnType<typeof createOpenAICompatible>;
  close(): Promise<void>;
}

export interface KitOptions {
  database?: TestDatabase;
  /** Timeouts of both providers (a stall before the first byte must end quickly). */
  timeouts?: TestProvider['timeouts'];
}

export async function startRouterKit(options: KitOptions = {}): Promise<RouterKit> {
  const [a, b] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const timeouts = { first_byte_ms: 1_000, idle_ms: 1_000, ...options.timeouts };
  const config = testRouterConfig({
    providers: [
      { id: 'a', base_url: a.base_url, api_key_env: 'KEY_A', timeouts },
      { id: 'b', base_url: b.base_url, api_key_env: 'KEY_B', timeouts },
    ],
    models: [
      // Served by a, then b.
      {
        id: 'chat',
        endpoints: [
          { provider: 'a', model: 'a-chat' },
          { provider: 'b', model: 'b-chat' },
        ],
      },
      // Served by a alone: `models` fallbacks and final errors.
      { id: 'only-a', endpoints: [{ provider: 'a', model: 'a-only' }] },
      { id: 'only-b', endpoints: [{ provider: 'b', model: 'b-only' }] },
      { id: 'embed', endpoints: [{ provider: 'a', model: 'a-embed' }] },
    ],
    // The router's own retries are its tests' business; here each endpoint is tried once.
    routing: { retries: 0, allowed_fails: 100 },
  });
  const router = createRouter({ config, env: { KEY_A, KEY_B } });
  const server = await startTestServer(options.database ?? 'sqlite', {}, undefined, { router: () => router });
  const gateway = `${server.url}/inference/router/gateway`;
  return {
    a,
    b,
    router,
    server,
    gateway,
    openai: ({ maxRetries = 0, apiKey = server.aliceKey } = {}) =>
      new OpenAI({ baseURL: gateway, apiKey, maxRetries, project: 'acme/router-tests' }),
    aiSdk: () =>
      createOpenAICompatible({
        name: 'weft',
        baseURL: gateway,
        apiKey: server.aliceKey,
        includeUsage: true,
        headers: { 'OpenAI-Project': 'acme/router-tests' },
      }),
    async close() {
      await server.close();
      await router.close();
      await Promise.all([a.close(), b.close()]);
    },
  };
}
