// The contract suite against Prism serving spec/openapi.json: checks the spec is consistent with
// itself (its examples match its schemas, its errors are documented) and that the client and the
// suite speak it. The same suite runs against the server in apps/server.
import { afterAll, beforeAll } from 'vitest';
import { defineContractSuite, SPEC_FILE } from '../src/index.ts';
import { startPrism, type RunningPrism } from './start-prism.ts';

let prism: RunningPrism | undefined;

beforeAll(async () => {
  prism = await startPrism(SPEC_FILE);
});

afterAll(async () => {
  await prism?.stop();
});

defineContractSuite({
  kind: 'mock',
  baseUrl: () => {
    if (!prism) throw new Error('Prism is not running');
    return prism.baseUrl;
  },
  apiKey: 'any-key-the-mock-does-not-check',
  projectId: 'acme/support-bot',
});
