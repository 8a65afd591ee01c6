// Tests that the suite keeps up with the spec: an operation added to spec/openapi.json without
// cases here, or without a request that breaks its schema, fails the run.
import { describe, expect, test, type RunnerTestSuite } from 'vitest';
import type { OperationCase } from './cases/case-types.ts';
import { succeeds } from './describe-operation.ts';
import type { SuiteContext } from './suite-context.ts';

export function defineCoverageTests(s: SuiteContext, cases: Readonly<Record<string, OperationCase>>): void {
  describe('coverage of the spec', () => {
    test('every operation of the spec has cases, and every case is an operation of the spec', () => {
      const inSpec = s.operations.map((op) => op.operationId).sort();
      expect(Object.keys(cases).sort()).toEqual(inSpec);
    });

    test('every operation that takes input has a request that breaks its schema, or says why not', () => {
      const missing = s.operations
        .filter((op) => op.takesInput)
        .filter((op) => (cases[op.operationId]?.invalid.length ?? 0) === 0 && !cases[op.operationId]?.noInvalidRequest)
        .map((op) => op.operationId);
      expect(missing).toEqual([]);
    });

    test('every operation that documents 403 names its tenant, or says why it cannot be checked', () => {
      const missing = s.operations
        .filter((op) => '403' in op.responses && cases[op.operationId]?.tenancy === 'none')
        .map((op) => op.operationId);
      expect(missing).toEqual([]);
    });
  });
}

/** Goes last: after all tests ran, every operation must have answered 2xx as the spec says. */
export function defineExercisedTest(s: SuiteContext): void {
  test('every operation of the spec answered 2xx with a body matching the spec', (ctx) => {
    // A run filtered with -t (or with .only/.skip) leaves operations out on purpose.
    if (someTestSkipped(ctx.task.suite)) ctx.skip('not every test of the suite ran');
    // An operation that documents no 2xx (it never succeeds by design) is checked by its own test.
    const never = s.operations
      .filter(succeeds)
      .map((op) => op.operationId)
      .filter((id) => !s.verified.has(id));
    expect(never, 'operations never seen answering 2xx as documented').toEqual([]);
  });
}

function someTestSkipped(suite: RunnerTestSuite | undefined): boolean {
  return (suite?.tasks ?? []).some((task) =>
    task.type === 'suite' ? someTestSkipped(task) : task.mode === 'skip' || task.mode === 'todo' || task.result?.state === 'skip',
  );
}
