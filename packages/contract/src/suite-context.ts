// State shared by the tests of one suite run: the spec, the recorder every client fetches
// through, clients with each kind of credentials (created on first use, because the server's
// base URL may only be known once its beforeAll ran), and fresh names.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createClient, isWeftApiError, type ClientAuth, type WeftApiError, type WeftClient } from '@weft/client';
import type { CaseContext } from './cases/case-types.ts';
import { createConformanceChecker, type ConformanceChecker } from './conformance.ts';
import { entityOf, projectNameOf, resolveApiKey, resolveBaseUrl, type ContractTarget } from './contract-target.ts';
import { createExchangeRecorder, type ExchangeRecorder } from './exchange-recorder.ts';
import { loadSpec, type OpenApiDocument, specOperations, type AuthScheme, type SpecOperation } from '@weft/types/spec';
import { createSpecValidator, type SpecValidator } from './spec-validator.ts';

/** Which credentials a client sends: the target's key, a key the server never issued, or none. */
export type Credentials = { scheme: AuthScheme; key: 'valid' | 'wrong' } | 'none';

export interface SuiteContext {
  readonly target: ContractTarget;
  readonly doc: OpenApiDocument;
  readonly operations: readonly SpecOperation[];
  readonly validator: SpecValidator;
  readonly recorder: ExchangeRecorder;
  checker(): ConformanceChecker;
  client(credentials: Credentials): WeftClient;
  /** The client with the credentials `op` asks for (none when it asks for none). */
  clientFor(op: SpecOperation): WeftClient;
  /** A case context for the target's project, or for another one (403 checks). */
  context(projectId?: string): CaseContext;
  /** Operations that answered 2xx with a body the spec allows, filled as tests run. */
  readonly verified: Set<string>;
}

export const WRONG_KEY = 'weft-contract-suite-key-nobody-issued';

export function createSuiteContext(target: ContractTarget): SuiteContext {
  const doc = loadSpec();
  const operations = specOperations(doc);
  const validator = createSpecValidator(doc);
  const recorder = createExchangeRecorder();
  const clients = new Map<string, WeftClient>();
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let counter = 0;
  let checker: ConformanceChecker | undefined;

  const client = (credentials: Credentials): WeftClient => {
    const key = credentials === 'none' ? 'none' : `${credentials.scheme}:${credentials.key}`;
    let existing = clients.get(key);
    if (!existing) {
      const apiKey = credentials !== 'none' && credentials.key === 'valid' ? resolveApiKey(target) : WRONG_KEY;
      const auth: ClientAuth | undefined = credentials === 'none' ? undefined : { scheme: credentials.scheme, apiKey };
      existing = createClient({ baseUrl: resolveBaseUrl(target), fetch: recorder.fetch, ...(auth ? { auth } : {}) });
      clients.set(key, existing);
    }
    return existing;
  };

  const context = (projectId = target.projectId): CaseContext => ({
    kind: target.kind,
    projectId,
    // The target's entity applies to its own project only; another project brings its entity.
    entity: projectId === target.projectId ? (target.entity ?? entityOf(projectId)) : entityOf(projectId),
    project: projectNameOf(projectId),
    unique: (prefix) => `${prefix}-${runId}-${++counter}`,
    id: () => randomUUID(),
    now: () => new Date().toISOString(),
    expectSchema(schema, value) {
      expect(validator.schemaProblems(schema, value), `does not match #/components/schemas/${schema}`).toEqual([]);
    },
  });

  return {
    target,
    doc,
    operations,
    validator,
    recorder,
    checker() {
      checker ??= createConformanceChecker(operations, validator, new URL(resolveBaseUrl(target)).pathname);
      return checker;
    },
    client,
    clientFor: (op) => (op.schemes[0] ? client({ scheme: op.schemes[0], key: 'valid' }) : client('none')),
    context,
    verified: new Set(),
  };
}

/** Awaits a call that must fail with a WeftApiError of `status`, and returns that error. */
export async function expectStatus(call: Promise<unknown>, status: number): Promise<WeftApiError> {
  const outcome = await call.then(
    (data: unknown) => ({ data }),
    (error: unknown) => ({ error }),
  );
  if ('data' in outcome) expect.fail(`expected ${status}, got a 2xx answer: ${JSON.stringify(outcome.data)?.slice(0, 300)}`);
  const error = outcome.error;
  if (!isWeftApiError(error)) throw error; // a network failure or a bug: show it as it is
  expect(error.status, error.message).toBe(status);
  return error;
}
