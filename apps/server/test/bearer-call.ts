// A Bearer call as ART's client makes it (openai-python: JSON in, JSON out), answering status and
// parsed body, for tests of the /v1/preview/models operations.
import type { TestServer } from './test-server.ts';

export function bearerCall(getServer: () => TestServer) {
  return async (method: string, path: string, body?: unknown, key = getServer().aliceKey) => {
    const res = await fetch(getServer().url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}
