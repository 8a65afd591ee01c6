// The spec's examples are true: every request example, sent to a fresh server in an order where
// one builds on another, gets the answer the spec shows for it. Only generated values (ids, times;
// spec-examples/run-examples.ts names them) are ignored; digests and every other value must match.
// What the mock serves is therefore what the server answers. WEFT_WRITE_EXAMPLES=1 rewrites the
// response examples from the answers instead (then `pnpm gen`, and review the diff).
import { isDeepStrictEqual } from 'node:util';
import { expect, it } from 'vitest';
import type { OpenApiDocument } from '@weft/types/spec';
import { operations, spec } from '../src/http/spec.ts';
import { ORDER, runExamples } from './spec-examples/run-examples.ts';
import { writeExamples } from './spec-examples/write-examples.ts';
import { describeEachDatabase } from './test-server.ts';

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
    const problems = results.flatMap((r) => {
      const where = `${r.operationId} (${r.name})`;
      if (r.status !== 200) return [`${where}: ${r.status} ${r.text.slice(0, 300)}`];
      if (r.expected && !isDeepStrictEqual(r.actual, r.expected.value)) {
        return [
          `${where}:\n  expected ${JSON.stringify(r.expected.value).slice(0, 1200)}\n  actual   ${JSON.stringify(r.actual).slice(0, 1200)}`,
        ];
      }
      return [];
    });
    expect(problems, problems.join('\n')).toEqual([]);
    // Every operation was exercised by at least one example.
    expect(new Set(results.map((r) => r.operationId))).toEqual(new Set(ORDER));
  });
});
