// The spec's examples are true: every request example, sent to a fresh server in an order where
// one builds on another, gets the answer the spec shows for it. Only generated values (ids, times;
// spec-examples/run-examples.ts names them) are ignored; digests and every other value must match.
// What the mock serves is therefore what the server answers. WEFT_WRITE_EXAMPLES=1 rewrites the
// response examples from the answers instead (then `pnpm gen`, and review the diff).
import { isDeepStrictEqual } from 'node:util';
import { expect, it } from 'vitest';
import type { OpenApiDocument } from '@weft/types/spec';
import { operations, spec } from '../src/http/spec.ts';
import { ORDER, runExamples, type ExampleResult } from './spec-examples/run-examples.ts';
import { withNulls } from './spec-examples/with-nulls.ts';
import { writeExamples } from './spec-examples/write-examples.ts';
import { describeEachDatabase, startTestServer } from './test-server.ts';

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
    const results = await runExamples(spec as unknown as OpenApiDocument, operations, url, aliceKey);
    if (process.env.WEFT_WRITE_EXAMPLES === '1') {
      console.info(`rewrote ${writeExamples(results).length} response examples`);
      return;
    }
    const problems = mismatches(results);
    expect(problems, problems.join('\n')).toEqual([]);
    // Every operation was exercised by at least one example.
    expect(new Set(results.map((r) => r.operationId))).toEqual(new Set(ORDER));
  });

  it("gets the same answers with every optional field a Weave operation's example leaves out sent as null, as pydantic sends it", async () => {
    // A fresh server of the same database: the examples create what later ones read.
    const fresh = await startTestServer(getServer().databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite');
    try {
      let nulled = 0;
      const results = await runExamples(spec as unknown as OpenApiDocument, operations, fresh.url, fresh.aliceKey, (op, body, schema) => {
        const doc = spec as unknown as OpenApiDocument;
        const tags = (doc.paths[op.path]![op.method as 'post'] as { tags?: string[] }).tags ?? [];
        if (!tags.some((t) => PYDANTIC_TAGS.has(t))) return body;
        const sent = withNulls(spec as unknown as OpenApiDocument, schema, body);
        if (JSON.stringify(sent) !== JSON.stringify(body)) nulled++;
        return sent;
      });
      const problems = mismatches(results);
      expect(problems, problems.join('\n')).toEqual([]);
      expect(nulled).toBeGreaterThan(20); // the walk really added nulls
    } finally {
      await fresh.close();
    }
  });
});
