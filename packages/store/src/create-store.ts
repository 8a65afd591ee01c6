// Composes the store from one module per resource. Each module gets the same injected parts
// (database, catalogue) and returns the methods of its operations.
import type { Catalogue } from '@weft/core';
import { pendingMigrations } from './db/migrate.ts';
import type { Db } from './db/index.ts';
import { annotationQueueMethods } from './annotation-queues/index.ts';
import { callMethods } from './calls/index.ts';
import { costMethods } from './costs/index.ts';
import { feedbackMethods } from './feedback/index.ts';
import { fileMethods } from './files/index.ts';
import { modelMethods } from './models/index.ts';
import { objectMethods } from './objects/index.ts';
import { projectMethods } from './projects/index.ts';
import { refMethods } from './refs/index.ts';
import { retentionMethods } from './retention/index.ts';
import { translateDatabaseErrors } from './database-errors.ts';
import type { Store } from './store.ts';
import { tableMethods } from './tables/index.ts';

export interface StoreOptions {
  db: Db;
  /** Router catalogue: its prices are the costs of `call/read … include_costs` (after a project's own, cost/create). */
  catalogue: Catalogue;
}

export function createStore(opts: StoreOptions): Store {
  // Typed by Store (derived from the spec): a missing or misnamed operation does not compile.
  const store: Store = {
    ...objectMethods(opts),
    ...tableMethods(opts),
    ...callMethods(opts),
    ...annotationQueueMethods(opts),
    ...modelMethods(opts),
    ...fileMethods(opts),
    ...feedbackMethods(opts),
    ...costMethods(opts),
    ...projectMethods(opts),
    ...refMethods(opts),
    ...retentionMethods(opts),
    async health() {
      try {
        await opts.db.ping();
        return { status: 'ok', database: 'ok' };
      } catch {
        return { status: 'degraded', database: 'unreachable' };
      }
    },
    // Readiness as the store sees it (the server adds whether it is draining).
    async ready() {
      let database: 'ok' | 'unreachable' = 'ok';
      let migrations: 'applied' | 'pending' | 'unknown' = 'unknown';
      try {
        await opts.db.ping();
        migrations = (await pendingMigrations(opts.db)) === 0 ? 'applied' : 'pending';
      } catch {
        database = 'unreachable';
      }
      const ready = database === 'ok' && migrations === 'applied';
      return { status: ready ? 'ready' : 'not_ready', database, migrations, draining: false };
    },
    close: () => opts.db.close(),
  };
  return translateDatabaseErrors(store);
}
