// The contract suite that runs against the Prism mock, now against the real server: on SQLite,
// on PostgreSQL, and through `prism proxy --errors`, which flags any answer that breaks the spec
// (body or headers) with an `sl-violations` header.
import { afterAll, beforeAll, describe } from 'vitest';
import { defineContractSuite, SPEC_FILE } from '@weft/contract';
import { startPrism, type RunningPrism } from '@weft/contract/start-prism';
import { CHAT_MODEL, EMBEDDINGS_MODEL } from '@weft/contract/router-models';
import { createRouter, type Router } from '@weft/router';
import { testRouterConfig } from '@weft/router/testing';
import { describeIfPostgres } from '@weft/store/testing';
import { startSteadyUpstream, type SteadyUpstream } from './router/steady-upstream.ts';
import { startTestServer, type TestDatabase, type TestServer } from './test-server.ts';

function serverSuite(database: TestDatabase, { throughProxy = false } = {}) {
  return () => {
    let server: TestServer | undefined;
    let proxy: RunningPrism | undefined;
    let upstream: SteadyUpstream | undefined;
    let router: Router | undefined;
    beforeAll(async () => {
      // The router serves the models the contract's router cases name, from an upstream that
      // always answers well.
      upstream = await startSteadyUpstream();
      const config = testRouterConfig({
        providers: [{ id: 'steady', base_url: upstream.base_url }],
        models: [CHAT_MODEL, EMBEDDINGS_MODEL].map((id) => ({ id, endpoints: [{ provider: 'steady' }] })),
      });
      const served = createRouter({ config });
      router = served;
      server = await startTestServer(database, {}, undefined, { router: () => served });
      if (throughProxy) proxy = await startPrism(SPEC_FILE, { upstream: server.url });
    }, 90_000);
    afterAll(async () => {
      await proxy?.stop();
      await server?.close();
      await router?.close();
      await upstream?.close();
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
