// Composes the store from one module per resource. Each module gets the same injected parts
// (database, catalogue) and returns the methods of its operations.
import { pendingMigrations } from './db/migrate.ts';
import { annotationQueueMethods } from './annotation-queues/index.ts';
import { callMethods } from './calls/index.ts';
import { costMethods } from './costs/index.ts';
import { evaluationMethods } from './evaluations/index.ts';
import { feedbackMethods } from './feedback/index.ts';
import { fileMethods } from './files/index.ts';
import { judgementMethods } from './judgements/index.ts';
import { modelMethods } from './models/index.ts';
import { objectMethods } from './objects/index.ts';
import { projectMethods } from './projects/index.ts';
import { refMethods } from './refs/index.ts';
import { retentionMethods } from './retention/index.ts';
import { availabilityError, translateDatabaseErrors } from './database-errors.ts';
import { withDeadline, type Deadline } from './db/deadline.ts';
import type { Store } from './store.ts';
import type { StoreOptions } from './store-options.ts';
import { tableMethods } from './tables/index.ts';
import { threadMethods } from './threads/index.ts';

/** How long /health's and /ready's database checks may take before the database counts as unreachable. */
const HEALTH_PROBE_MS = 1000;
const READY_PROBE_MS = 2000;

const probeDeadline = (ms: number, what: string): Deadline => ({
  at: Date.now() + ms,
  reason: `The database did not answer ${what} within ${ms} ms`,
});

export function createStore(opts: StoreOptions): Store {
  // Typed by Store (derived from the spec): a missing or misnamed operation does not compile.
  const store: Store = {
    ...objectMethods(opts),
    ...tableMethods(opts),
    ...callMethods(opts),
    ...threadMethods(opts),
    ...evaluationMethods(opts),
    ...annotationQueueMethods(opts),
    ...modelMethods(opts),
    ...fileMethods(opts),
    ...feedbackMethods(opts),
    ...judgementMethods(opts),
    ...costMethods(opts),
    ...projectMethods(opts),
    ...refMethods(opts),
    ...retentionMethods(opts),
    // Probes have short deadlines of their own: a frozen database must not hold a load
    // balancer's or an orchestrator's check.
    async health() {
      try {
        await withDeadline(probeDeadline(HEALTH_PROBE_MS, 'the health check'), () => opts.db.ping());
        return { status: 'ok', database: 'ok' };
      } catch {
        return { status: 'degraded', database: 'unreachable' };
      }
    },
    // Readiness as the store sees it (the server adds whether it is starting or draining).
    async ready() {
      try {
        const pending = await withDeadline(probeDeadline(READY_PROBE_MS, 'the readiness check'), async () => {
          await opts.db.ping();
          return pendingMigrations(opts.db);
        });
        if (pending === 0) return { status: 'ready', database: 'ok', migrations: 'applied', draining: false, reason: 'ready' };
        return {
          status: 'not_ready',
          database: 'ok',
          migrations: 'pending',
          draining: false,
          reason: `the database lacks ${pending} migration(s) of this version (run weft migrate)`,
        };
      } catch (err) {
        const why = availabilityError(err)?.message ?? (err as Error).message;
        return { status: 'not_ready', database: 'unreachable', migrations: 'unknown', draining: false, reason: why };
      }
    },
    close: () => opts.db.close(),
  };
  return translateDatabaseErrors(store);
}
