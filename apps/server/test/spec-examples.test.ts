// The spec's examples are true: every request example, sent to a fresh server in an order where
// one builds on another, gets the answer the spec shows for it. Only generated values (ids, times;
// spec-examples/run-examples.ts names them) are ignored; digests and every other value must match.
// What the mock serves is therefore what the server answers. WEFT_WRITE_EXAMPLES=1 rewrites the
// response examples from the answers instead (then `pnpm gen`, and review the diff).
import { isDeepStrictEqual } from 'node:util';
import { createRouter, type Router } from '@weft/router';
import { startFakeUpstream, testRouterConfig, type FakeUpstream, type JsonObject } from '@weft/router/testing';
import { describeIfPostgres } from '@weft/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '@weft/types/spec';
import { operations, spec } from '../src/http/spec.ts';
import { ORDER, ROUTER_OPERATIONS, runExamples, type ExampleResult } from './spec-examples/run-examples.ts';
import { withNulls } from './spec-examples/with-nulls.ts';
import { writeExamples } from './spec-examples/write-examples.ts';
import { describeEachDatabase, startTestServer, type TestServer } from './test-server.ts';

const notRouter = (operationId: string) => !ROUTER_OPERATIONS.has(operationId);

/** Clients that serialize with pydantic (every Weave operation); ART's client and OTLP exporters leave unset fields out. */
const PYDANTIC_TAGS = new Set(['objects', 'tables', 'calls', 'files', 'feedback', 'annotation-queues', 'graphql']);

function mismatches(results: ExampleResult[]): string[] {
  return results.flatMap((r) => {
    const where = `${r.operationId} (${r.name})`;
    if (r.status !== 200) return [`${where}: ${r.status} ${r.text.slice(0, 300)}`];
    if (r.expected && !isDeepStrictEqual(r.actual, r.expected.value)) {
      return [
        `${where}:\n  expected ${JSON.stringify(r.expected.value).slice(0, 1200)}\n  actual   ${JSON.stringify(r.actual).slice(0, 1200)}`,
      ];
    }
    return [];
  });
}

describeEachDatabase('spec examples', (getServer) => {
  it('orders every operation of the spec', () => {
    const succeeding = operations.filter((op) => '200' in op.responses);
    expect([...ORDER].sort()).toEqual(succeeding.map((op) => op.operationId).sort());
  });

  it('every request example gets the answer the spec shows', async () => {
    const { url, aliceKey } = getServer();
    const results = await runExamples(spec as unknown as OpenApiDocument, operations, url, aliceKey, undefined, notRouter);
    if (process.env.WEFT_WRITE_EXAMPLES === '1') {
      console.info(`rewrote ${writeExamples(results).length} response examples`);
      return;
    }
    const problems = mismatches(results);
    expect(problems, problems.join('\n')).toEqual([]);
    // Every operation (but the router's, below) was exercised by at least one example.
    expect(new Set(results.map((r) => r.operationId))).toEqual(new Set(ORDER.filter(notRouter)));
  });

  it("gets the same answers with every optional field a Weave operation's example leaves out sent as null, as pydantic sends it", async () => {
    // A fresh server of the same database: the examples create what later ones read.
    const fresh = await startTestServer(getServer().databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite');
    try {
      let nulled = 0;
      const results = await runExamples(
        spec as unknown as OpenApiDocument,
        operations,
        fresh.url,
        fresh.aliceKey,
        (op, body, schema) => {
          const doc = spec as unknown as OpenApiDocument;
          const tags = (doc.paths[op.path]![op.method as 'post'] as { tags?: string[] }).tags ?? [];
          if (!tags.some((t) => PYDANTIC_TAGS.has(t))) return body;
          const sent = withNulls(spec as unknown as OpenApiDocument, schema, body);
          if (JSON.stringify(sent) !== JSON.stringify(body)) nulled++;
          return sent;
        },
        notRouter,
      );
      const problems = mismatches(results);
      expect(problems, problems.join('\n')).toEqual([]);
      expect(nulled).toBeGreaterThan(20); // the walk really added nulls
    } finally {
      await fresh.close();
    }
  });
});

/** An example answer of the router, as its upstream would send it: the upstream's model name, no provider, no cost. */
function upstreamAnswer(path: string, name: string, upstreamModel: string): JsonObject {
  const doc = spec as unknown as OpenApiDocument;
  const ok = doc.paths[path]!.post!.responses['200'] as { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  const answer = structuredClone(ok.content['application/json']!.examples![name]!.value) as Record<string, unknown>;
  delete answer.provider;
  delete (answer.usage as Record<string, unknown>).cost;
  return { ...answer, model: upstreamModel };
}

// The router's examples need a router: a fake upstream answering what the examples show, behind
// the example's models and provider, priced so the examples' costs come out exactly.
for (const database of ['sqlite', 'postgres'] as const) {
  (database === 'postgres' ? describeIfPostgres : describe)(`spec examples of the router [${database}]`, () => {
    let upstream: FakeUpstream;
    let router: Router;
    let server: TestServer;
    beforeAll(async () => {
      upstream = await startFakeUpstream();
      upstream.script(
        { kind: 'json', body: upstreamAnswer('/inference/router/gateway/chat/completions', 'answer', 'llama-3.1-8b') },
        { kind: 'json', body: upstreamAnswer('/inference/router/gateway/embeddings', 'one', 'bge-m3') },
      );
      router = createRouter({
        config: testRouterConfig({
          providers: [{ id: 'vllm-eu', base_url: upstream.base_url }],
          models: [
            {
              id: 'meta-llama/Llama-3.1-8B-Instruct',
              endpoints: [
                {
                  provider: 'vllm-eu',
                  model: 'llama-3.1-8b',
                  pricing: { prompt: '0.00000022', input_cache_read: '0.00000011', completion: '0.00000088' },
                },
              ],
            },
            { id: 'BAAI/bge-m3', endpoints: [{ provider: 'vllm-eu', model: 'bge-m3', pricing: { prompt: '0.00000002' } }] },
          ],
        }),
      });
      server = await startTestServer(database, {}, undefined, { router: () => router });
    });
    afterAll(async () => {
      await server?.close();
      await router?.close();
      await upstream?.close();
    });

    it('every request example of the router gets the answer the spec shows', async () => {
      const results = await runExamples(spec as unknown as OpenApiDocument, operations, server.url, server.aliceKey, undefined, (id) =>
        ROUTER_OPERATIONS.has(id),
      );
      const problems = mismatches(results);
      expect(problems, problems.join('\n')).toEqual([]);
      expect(new Set(results.map((r) => r.operationId))).toEqual(ROUTER_OPERATIONS);
      // What the upstream was asked: the example's request, with the upstream's model name.
      expect(upstream.requests.map((r) => (r.body as { model?: string }).model)).toEqual(['llama-3.1-8b', 'bge-m3']);
    });
  });
}
