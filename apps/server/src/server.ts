// Wires config → database → store → app and listens. Used by main.ts and by tests, which start a
// real server on port 0 with a fresh database.
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import { createServer, type Server } from 'node:http';
import { pino, type Logger } from 'pino';
import { loadCatalogue } from '@weft/core';
import { createMetrics } from './http/metrics.ts';
import {
  createApiKeyStore,
  createStore,
  migrateToLatest,
  migrateToLatestWithoutTimeout,
  openDatabase,
  parseDatabaseUrl,
  redactUrl,
  type Db,
} from '@weft/store';
import { createAuthenticator, ensureLocalAuth, loadAuthFile } from './auth/index.ts';
import type { KeyDatabase } from './auth/database-keys-cli.ts';
import type { Config } from './config.ts';
import { createApp } from './app.ts';
import { createDrainer } from './http/lifecycle.ts';
import { createLimiter } from './http/rate-limit.ts';
import { VERSION } from './version.ts';
import { serverUrl } from './http/server-url.ts';
import { startJudges } from './judges/judges.ts';
import { startSweeper } from './retention/sweeper.ts';
import { createCallRecorder } from './router/record-call.ts';
import type { Deps } from './handlers/index.ts';
import { startServerRouter } from './router/start-router.ts';

export interface RunningServer {
  url: string;
  port: number;
  logger: Logger;
  /** Reads the router file again (main.ts calls it on SIGHUP); undefined without ROUTER_CONFIG. */
  reloadRouter: ((why: string) => Promise<boolean>) | undefined;
  /** Graceful: stops accepting, lets requests in flight finish (up to SHUTDOWN_TIMEOUT), closes the database. */
  close(): Promise<void>;
}

/** The configured database's key table, migrated, for `weft keys create|list|revoke|rotate`. */
export async function openKeyDatabase(config: Config): Promise<KeyDatabase> {
  const db = await openDatabase(config.databaseUrl, { dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  const target = parseDatabaseUrl(config.databaseUrl, config.dataDir);
  return { keys: createApiKeyStore(db), where: target.kind === 'sqlite' ? target.path : redactUrl(target.url), close: () => db.close() };
}

/** What a test may put in place of what the configuration builds. */
export interface ServerOverrides {
  /** The inference router (tests build one from a config object and fake upstreams). */
  router?: Deps['router'];
}

export async function startServer(
  config: Config,
  logger: Logger = pino({ level: config.logLevel }),
  overrides: ServerOverrides = {},
): Promise<RunningServer> {
  // Everything that can be wrong with the setup fails here, before the port opens.
  const catalogue = await loadCatalogue(config.modelsFile).catch((err: unknown) => {
    // The shipped catalogue always loads: a failure is the operator's file, so name its variable.
    throw config.modelsFile ? new Error(`MODELS_FILE=${config.modelsFile}: ${(err as Error).message}`, { cause: err }) : err;
  });
  let authConfig;
  if (config.authFile) {
    authConfig = loadAuthFile(config.authFile);
  } else {
    const local = ensureLocalAuth(config.dataDir);
    authConfig = local.config;
    if (local.newKey) {
      // Printed once, to stdout and not through the logger, so it never lands in log storage.
      process.stdout.write(
        `\nWeft created a local API key (stored hashed in ${resolve(config.dataDir, 'auth.yaml')}; it is not shown again):\n\n    ${local.newKey}\n\n` +
          `Use it as the password of HTTP Basic auth (any username) or as a Bearer token.\n\n`,
      );
    }
  }
  // Statements of requests are bounded by the request's deadline on the server side too.
  const db = await openDatabase(config.databaseUrl, {
    dataDir: config.dataDir,
    pool: { defaultStatementTimeoutMs: config.requestTimeoutMs },
    onPoolError: (err) => logger.warn({ err }, 'a PostgreSQL connection failed; it is discarded'),
  });
  const metrics = createMetrics(db);
  const store = metrics.countIngest(createStore({ db, catalogue }));
  const lifecycle = createDrainer();
  const limiter = await createLimiter(config.rateLimits, config.redisUrl, { logger, onRedisState: metrics.redisState });
  const recorder = createCallRecorder({ store, logger });
  // A bad router file stops the server here, every problem named by line.
  const routing = await startServerRouter(config, catalogue, metrics, logger).catch(async (err: unknown) => {
    await limiter?.close();
    await store.close();
    throw err;
  });
  const router = overrides.router ?? routing?.router ?? (() => undefined);
  const app = await createApp(
    {
      store,
      auth: createAuthenticator(authConfig, createApiKeyStore(db)),
      catalogue,
      version: VERSION,
      lifecycle,
      metrics,
      limiter,
      router,
      recorder,
      routerLimits: routing?.limits,
    },
    {
      bodyLimit: config.bodyLimit,
      logBodyLimit: config.logBodyLimit,
      validateResponses: config.validateResponses,
      logger,
      limiter,
      webDir: config.webDir,
      requestTimeoutMs: config.requestTimeoutMs,
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy,
    },
  );
  // Timeouts are checked every connectionsCheckingInterval (Node's default, 30 s, would let a silent
  // connection live for up to headersTimeout + 30 s).
  const server: Server = createServer({ connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs) }, app);
  // Clients such as the Weave SDK keep connections alive; the server must not cut them first.
  server.keepAliveTimeout = config.idleTimeoutMs;
  // A connection that never completes its headers (or sends nothing) is closed after
  // headersTimeout (Node checks every connectionsCheckingInterval). The request's own deadline
  // (http/deadline.ts) answers first; Node's requestTimeout stays as a backstop behind it.
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs + 5000;
  server.maxConnections = config.maxConnections;
  // After listening, an accept failure (EMFILE: out of file descriptors) is emitted here; unheard,
  // it would end the process. Node goes on accepting by itself.
  server.on('error', (err) => logger.error({ err }, 'the listening socket failed'));
  // Node's headersTimeout starts with the first byte: a connection that sends nothing at all
  // would stay open forever. Close it after the same time, or at once when draining.
  const silent = new Set<Socket>();
  server.on('connection', (socket) => {
    silent.add(socket);
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, config.headersTimeoutMs);
    timer.unref();
    const spoke = () => {
      clearTimeout(timer);
      silent.delete(socket);
    };
    socket.once('data', spoke);
    socket.once('close', spoke);
  });
  const closeSilent = () => {
    for (const socket of silent) if (socket.bytesRead === 0) socket.destroy();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await routing?.close();
    await limiter?.close();
    await store.close();
    throw listenError(err, config);
  }
  const { port } = server.address() as AddressInfo;
  const url = serverUrl(config.host, port);
  // The port is open while migrations run: /live and /health answer (the process is alive),
  // /ready and every operation answer 503 until they are done.
  logger.info({ url }, 'weft starting: applying database migrations');
  try {
    await migrate(db, config);
  } catch (err) {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await closed;
    await routing?.close();
    await limiter?.close();
    await store.close();
    throw err;
  }
  lifecycle.serve();
  // "listening" once requests are served (tests and the bench wait for this line).
  logger.info({ url, database: db.dialect }, 'weft listening');
  const sweeper = startSweeper(db, {
    intervalMs: config.retentionSweepIntervalMs,
    fileGraceMs: config.retentionFileGraceMs,
    logger,
    onBatch: metrics.countRetention,
  });
  const judges = startJudges(
    { db, store, router, recorder, routerLimits: routing?.limits },
    { concurrency: config.judgeConcurrency, pollMs: config.judgePollIntervalMs, scanMs: config.monitorScanIntervalMs, logger },
  );
  return {
    url,
    port,
    logger,
    reloadRouter: routing?.reload,
    async close() {
      // First, so no sweep outlives the database: its running batch commits, then it ends.
      await sweeper.stop();
      const { cut } = await lifecycle.drain(server, config.shutdownTimeoutMs, closeSilent);
      if (cut > 0) logger.warn({ connections: cut }, 'requests still running at SHUTDOWN_TIMEOUT were cut');
      // Judges in flight are aborted and go back to the queue; their router calls are recorded below.
      await judges.stop();
      // The records of the requests just finished, before the database goes.
      await recorder.close();
      await routing?.close();
      await limiter?.close();
      await store.close();
    },
  };
}

/**
 * Migrations, on their own connection on PostgreSQL: a long one (a table rewritten) must not meet
 * the statement timeout that bounds requests.
 */
async function migrate(db: Db, config: Config): Promise<void> {
  await migrateToLatestWithoutTimeout(db, () =>
    openDatabase(config.databaseUrl, { dataDir: config.dataDir, pool: { max: 2, statementTimeoutMs: 0 } }),
  );
}

/** Why the port could not be opened, in the terms of the variables that set it. */
function listenError(err: unknown, config: Config): Error {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  const hint =
    code === 'EADDRINUSE'
      ? `${where} is already in use (another Weft, or another program); set PORT to a free port (PORT=0 picks one)`
      : code === 'EACCES'
        ? `${where} needs privileges this user does not have; set PORT above 1023`
        : code === 'EADDRNOTAVAIL'
          ? `HOST=${config.host} is not an address of this machine`
          : undefined;
  return hint ? new Error(`cannot listen on ${hint}`, { cause: err }) : (err as Error);
}
