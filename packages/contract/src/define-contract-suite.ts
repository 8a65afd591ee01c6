// The contract suite: for every operation of spec/openapi.json, well-formed and broken requests
// through the typed client, with the answers checked against the spec. Call it at the top level
// of a vitest file; `target.kind` decides which checks the target can honour.
import { afterEach, describe, expect, test } from 'vitest';
import type { OperationCase } from './cases/case-types.ts';
import { operationCases } from './cases/index.ts';
import type { ContractTarget } from './contract-target.ts';
import { defineCoverageTests, defineExercisedTest } from './coverage.ts';
import { defineOperationTests } from './describe-operation.ts';
import { defineRoundTrips } from './round-trips/index.ts';
import { createSuiteContext } from './suite-context.ts';

export function defineContractSuite(target: ContractTarget): void {
  describe(`Weft API contract (${target.kind})`, () => {
    const s = createSuiteContext(target);
    // Indexed by the spec's operationIds at run time, which may be ahead of the generated types.
    const cases: Readonly<Record<string, OperationCase>> = operationCases;

    // Every answer of every test, whatever the test asserted, must be one the spec documents.
    afterEach(() => {
      const problems: string[] = [];
      for (const exchange of s.recorder.take()) {
        const { operation, problems: found } = s.checker().check(exchange);
        found.push(...(target.checkExchange?.(exchange) ?? []));
        problems.push(...found);
        if (operation && found.length === 0 && exchange.status >= 200 && exchange.status < 300) s.verified.add(operation.operationId);
      }
      expect(problems, 'answers that do not match the spec').toEqual([]);
    });

    defineCoverageTests(s, cases);

    for (const op of s.operations) {
      describe(`${op.operationId} (${op.method.toUpperCase()} ${op.path})`, () => {
        const opCases = cases[op.operationId];
        if (opCases) defineOperationTests(op, opCases, s);
        else test('has cases in the contract suite', () => expect.fail(`add cases for ${op.operationId} in packages/contract/src/cases/`));
      });
    }

    if (target.kind === 'server') defineRoundTrips(s);

    defineExercisedTest(s);
  });
}
