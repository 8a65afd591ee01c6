// Retention: Weave's per-project TTL setting (its two operations) and the sweep that deletes what
// expired (sweep.ts, exported from the package: not an operation).
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { projectTtlSettingsRead } from './project-ttl-settings-read.ts';
import { projectTtlSettingsUpdate } from './project-ttl-settings-update.ts';

export function retentionMethods({ db }: Pick<StoreOptions, 'db'>) {
  return storeMethods({
    projectTtlSettingsRead: (req) => projectTtlSettingsRead(db, req),
    projectTtlSettingsUpdate: (req, ctx) => projectTtlSettingsUpdate(db, req, ctx.user),
  });
}
