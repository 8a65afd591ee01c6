// The router of a running server: its configuration file (ROUTER_CONFIG), loaded at start, where
// a bad file stops the server with every problem named by line; reloaded on SIGHUP and when the
// file changes (watched, debounced). A reload that finds a bad file keeps the configuration in
// use and logs the problems. A good one is handed to Router.reload, which lets requests in flight
// finish on the old configuration, and to the limits, which keep their counts.
import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { Router, RouterConfig, RouterLimits } from '@weft/router';
import { watchFile } from './watch-file.ts';

export interface RouterRuntimeOptions {
  /** The router file (ROUTER_CONFIG). */
  file: string;
  logger: Logger;
  /** Reads and validates the file; throws an error listing its problems. */
  load(file: string): Promise<RouterConfig>;
  /** The router for the first configuration. */
  create(config: RouterConfig): Router;
  /** The limits for the first configuration. */
  createLimits(config: RouterConfig): RouterLimits;
  /** Where SIGHUP is received (process; a test passes an emitter). */
  signals?: Pick<EventEmitter, 'on' | 'off'>;
  /** Wait after the last change of the file before reloading; 0: no watch. */
  watchDebounceMs?: number;
}

export interface RouterRuntime {
  router: () => Router;
  readonly limits: RouterLimits;
  /** Reads the file again; resolves whether the new configuration is in use. */
  reload: (why: string) => Promise<boolean>;
  /** Stops watching and closes the router's connections. */
  close(): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

export async function startRouterRuntime(opts: RouterRuntimeOptions): Promise<RouterRuntime> {
  const { file, logger, signals = process } = opts;
  const config = await opts.load(file);
  let loaded = digest(await readFile(file, 'utf8').catch(() => ''));
  const router = opts.create(config);
  const limits = opts.createLimits(config);
  logger.info({ file, models: config.models.length, providers: config.providers.length }, 'router configuration loaded');

  // One reload at a time; a request for another while one runs is done once it ends, so the
  // last version of the file always wins.
  let running: Promise<boolean> | undefined;
  let again: { why: string; force: boolean } | undefined;
  const reloadOnce = async (why: string, force: boolean): Promise<boolean> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      logger.error({ file, why, err }, 'router configuration not reloaded: the file cannot be read; the previous one stays in use');
      return false;
    }
    // A watch reports every write of the file: only a new content is a new configuration.
    if (!force && digest(text) === loaded) {
      logger.debug({ file, why }, 'router file unchanged: nothing to reload');
      return false;
    }
    let next: RouterConfig;
    try {
      next = await opts.load(file);
    } catch (err) {
      const { problems } = err as { problems?: readonly string[] };
      logger.error(
        { file, why, problems: problems ?? [(err as Error).message] },
        'router configuration not reloaded: the file has problems; the previous one stays in use',
      );
      return false;
    }
    router.reload(next);
    limits.update(next.limits);
    loaded = digest(text);
    logger.info({ file, why, models: next.models.length, providers: next.providers.length }, 'router configuration reloaded');
    return true;
  };
  const reload = (why: string, force = true): Promise<boolean> => {
    if (running) {
      again = { why, force: force || (again?.force ?? false) };
      return running.then(() => running ?? Promise.resolve(false));
    }
    running = reloadOnce(why, force).finally(() => {
      running = undefined;
      if (again) {
        const { why: w, force: f } = again;
        again = undefined;
        void reload(w, f);
      }
    });
    return running;
  };

  const onHangup = () => void reload('SIGHUP');
  signals.on('SIGHUP', onHangup);
  const debounce = opts.watchDebounceMs ?? 250;
  const unwatch =
    debounce > 0
      ? watchFile(
          file,
          debounce,
          () => void reload('file changed', false),
          (err) => logger.warn({ file, err }, 'the router file cannot be watched: reload it with SIGHUP'),
        )
      : () => undefined;

  return {
    router: () => router,
    limits,
    reload: (why) => reload(why),
    async close() {
      signals.off('SIGHUP', onHangup);
      unwatch();
      await router.close();
    },
  };
}
