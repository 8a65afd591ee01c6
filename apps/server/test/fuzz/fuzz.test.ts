// Property-based fuzzing from the spec (fuzz-cases.ts): whatever a client sends, the server
// answers with a status below 500 (but the 501 an operation documents as its only answer: the
// training call Weft does not offer), never resets the connection, and answers within 10 s.
// WEFT_FUZZ_RUNS sets the number of cases per database (CI: 2,000; `pnpm fuzz`: 100,000);
// WEFT_FUZZ_SEED replays a failure (fast-check prints the seed and the shrunk case).
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { OpenApiDocument } from '@weft/types/spec';
import { operations, spec } from '../../src/http/spec.ts';
import { describeEachDatabase } from '../test-server.ts';
import { fuzzCase, type FuzzCase } from './fuzz-cases.ts';

const RUNS = Number(process.env.WEFT_FUZZ_RUNS ?? 2000);
const SEED = process.env.WEFT_FUZZ_SEED ? Number(process.env.WEFT_FUZZ_SEED) : undefined;

const TRACE = process.env.WEFT_FUZZ_TRACE;
// WEFT_FUZZ_OPS=otelExport,callStart: only these operations (to dwell on a new one).
const ONLY = process.env.WEFT_FUZZ_OPS?.split(',');
const FUZZED = ONLY ? operations.filter((op) => ONLY.includes(op.operationId)) : operations;

async function send(base: string, c: FuzzCase): Promise<number> {
  const t0 = Date.now();
  const res = await fetch(base + c.path, {
    method: c.method,
    headers: c.headers,
    body: c.body === undefined ? undefined : Buffer.from(c.body, 'base64'),
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer();
  // WEFT_FUZZ_TRACE=<file>: one line per case (status, ms, case), to find what preceded a failure.
  if (TRACE) appendFileSync(TRACE, `${res.status} ${Date.now() - t0}ms ${JSON.stringify(c)}\n`);
  return res.status;
}

/** The 5xx an operation that never succeeds documents as its answer (the training call's 501). */
function refusedByDesign(operationId: string, status: number): boolean {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op || Object.keys(op.responses).some((code) => code.startsWith('2'))) return false;
  return status !== 503 && String(status) in op.responses;
}

describeEachDatabase('fuzzing from the spec', (getServer) => {
  it(
    `answers ${RUNS} generated requests with no 5xx, no reset and no hang`,
    async () => {
      const { url, aliceKey } = getServer();
      const auth = (scheme: string | undefined) =>
        scheme === 'bearer' ? `Bearer ${aliceKey}` : `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}`;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(
          fuzzCase(spec as unknown as OpenApiDocument, FUZZED, 'acme', (op) => auth(op.schemes[0])),
          async (c) => {
            const status = await send(url, c);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (!refusedByDesign(c.operationId, status)) expect(status, JSON.stringify(c).slice(0, 2000)).toBeLessThan(500);
          },
        ),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
      );
      // The cases must reach the handlers, not only the validators: some succeed.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 50);
      // And the server is still well after all of it.
      expect((await fetch(`${url}/health`)).status).toBe(200);
    },
    Math.max(600_000, RUNS * 20),
  );
});
