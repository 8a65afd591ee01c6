// Starts a real Weft server for a test file: port 0, a fresh database (a SQLite file in a temp
// directory, or a fresh PostgreSQL database), and an auth file with two tenants.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { createClient, type ClientAuth, type WeftClient } from '@weft/client';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startServer, type RunningServer, type ServerOverrides } from '../src/server.ts';
import { writeTwoTenants } from './two-tenants.ts';

export type TestDatabase = 'sqlite' | 'postgres';

export interface TestServer {
  url: string;
  /** alice: member of entity `acme`. */
  aliceKey: string;
  /** bob: member of entity `globex` only. */
  bobKey: string;
  /** Where the server stores: for tests that check the rows themselves. */
  databaseUrl: string;
  client(auth?: ClientAuth | 'alice' | 'bob' | 'none'): WeftClient;
  close(): Promise<void>;
}

export async function startTestServer(
  database: TestDatabase = 'sqlite',
  env: Record<string, string> = {},
  logger: Logger = pino({ level: 'silent' }),
  overrides: ServerOverrides = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-server-test-'));
  const { authFile, aliceKey, bobKey } = writeTwoTenants(dir);
  const pg = database === 'postgres' ? await createPgTestDatabase() : undefined;
  let server: RunningServer;
  const databaseUrl = env.DATABASE_URL ?? (pg ? pg.url : `sqlite:${join(dir, 'weft.sqlite')}`);
  try {
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: dir,
      AUTH_FILE: authFile,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      VALIDATE_RESPONSES: '1',
      ...env,
    });
    server = await startServer(config, logger, overrides);
  } catch (err) {
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: server.url,
    aliceKey,
    bobKey,
    databaseUrl,
    client(auth = 'alice') {
      const resolved: ClientAuth | undefined =
        auth === 'none'
          ? undefined
          : auth === 'alice'
            ? { scheme: 'basic', apiKey: aliceKey }
            : auth === 'bob'
              ? { scheme: 'basic', apiKey: bobKey }
              : auth;
      return createClient({ baseUrl: server.url, ...(resolved ? { auth: resolved } : {}) });
    },
    async close() {
      await server.close();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Declares `body` once on SQLite and once on PostgreSQL (skipped loudly when PostgreSQL is
 * unreachable, failing under WEFT_REQUIRE_PG=1): the server must behave the same on both.
 */
export function describeEachDatabase(name: string, body: (getServer: () => TestServer) => void, env: Record<string, string> = {}): void {
  const declare = (database: TestDatabase) => () => {
    let server: TestServer | undefined;
    beforeAll(async () => {
      server = await startTestServer(database, env);
    });
    afterAll(async () => {
      await server?.close();
    });
    body(() => {
      if (!server) throw new Error('test server did not start');
      return server;
    });
  };
  describe(`${name} [sqlite]`, declare('sqlite'));
  describeIfPostgres(`${name} [postgres]`, declare('postgres'));
}
