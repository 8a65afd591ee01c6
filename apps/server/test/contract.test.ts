// The contract suite that runs against the Prism mock, now against the real server: on SQLite,
// on PostgreSQL, and through `prism proxy --errors`, which flags any answer that breaks the spec
// (body or headers) with an `sl-violations` header.
import { afterAll, beforeAll, describe } from 'vitest';
import { defineContractSuite, SPEC_FILE } from '@weft/contract';
import { startPrism, type RunningPrism } from '@weft/contract/start-prism';
import { describeIfPostgres } from '@weft/store/testing';
import { startTestServer, type TestDatabase, type TestServer } from './test-server.ts';

function serverSuite(database: TestDatabase, { throughProxy = false } = {}) {
  return () => {
    let server: TestServer | undefined;
    let proxy: RunningPrism | undefined;
    beforeAll(async () => {
      server = await startTestServer(database);
      if (throughProxy) proxy = await startPrism(SPEC_FILE, { upstream: server.url });
    }, 90_000);
    afterAll(async () => {
      await proxy?.stop();
      await server?.close();
    });
    defineContractSuite({
      kind: 'server',
      baseUrl: () => proxy?.baseUrl ?? server!.url,
      apiKey: () => server!.aliceKey,
      projectId: 'acme/contract',
      otherEntityProject: 'globex/contract',
      ...(throughProxy
        ? {
            behindPrismProxy: true,
            checkExchange: (exchange) => {
              const violations = exchange.headers.get('sl-violations');
              return violations ? [`${exchange.method} ${exchange.url.pathname} → sl-violations: ${violations}`] : [];
            },
          }
        : {}),
    });
  };
}

describe('contract: server on SQLite', serverSuite('sqlite'));
describeIfPostgres('contract: server on PostgreSQL', serverSuite('postgres'));
describe('contract: server on SQLite behind prism proxy --errors', serverSuite('sqlite', { throughProxy: true }));
