// The server's router, when ROUTER_CONFIG names a router file: the router (createRouter) with the
// server's metrics as its observer, the limits (shared through REDIS_URL's Redis when set, with
// the same watch of Redis as the rate limits: counted alone while it fails), and the runtime that
// reloads both (router-runtime.ts).
import type { Catalogue } from '@weft/core';
import { createRouter, createRouterLimits, loadRouterConfig, type Router, type RouterLimits } from '@weft/router';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Metrics } from '../http/metrics.ts';
import { sharedRedis, type SharedRedis } from '../http/rate-limit.ts';
import { startRouterRuntime } from './router-runtime.ts';

export interface ServerRouter {
  /** The router in use (a getter: handlers read it per request). */
  router: () => Router;
  /** Limits of the router's operations: `admit` before a request, `account` after its answer. */
  limits: RouterLimits;
  /** Reads the file again (SIGHUP does this); resolves whether the new configuration is in use. */
  reload: (why: string) => Promise<boolean>;
  close(): Promise<void>;
}

export async function startServerRouter(
  config: Config,
  catalogue: Catalogue,
  metrics: Metrics,
  logger: Logger,
): Promise<ServerRouter | undefined> {
  const file = config.routerConfigFile;
  if (!file) return undefined;
  // Opened whether or not the file sets limits now: a reload may add some.
  const redis: SharedRedis | undefined = config.redisUrl
    ? await sharedRedis(config.redisUrl, { logger: logger.child({ part: 'router limits' }) })
    : undefined;
  try {
    const runtime = await startRouterRuntime({
      file,
      logger,
      load: (path) => loadRouterConfig(path, catalogue),
      create: (routerConfig) => createRouter({ config: routerConfig, observer: metrics.router }),
      createLimits: (routerConfig) =>
        createRouterLimits({
          limits: routerConfig.limits,
          ...(redis ? { redis: redis.client, circuit: { ok: () => redis.state() === 'ok', failed: (err) => redis.failed(err) } } : {}),
        }),
      watchDebounceMs: config.routerWatchDebounceMs,
    });
    return {
      router: runtime.router,
      limits: runtime.limits,
      reload: runtime.reload,
      async close() {
        await runtime.close();
        await redis?.close();
      },
    };
  } catch (err) {
    await redis?.close();
    throw err;
  }
}
