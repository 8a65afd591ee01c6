export type * from './store.ts';
export type { ModelLogPiece, ModelLogStreamReq } from './models/model-log.ts';
export { modelLogPieces } from './models/model-log-rows.ts';
export { createStore } from './create-store.ts';
export type { StoreOptions } from './store-options.ts';
export {
  migrateToLatest,
  migrateToLatestWithoutTimeout,
  migrationsFor,
  migrationStatus,
  pendingMigrationSql,
  type MigrationState,
  openDatabase,
  parseDatabaseUrl,
  redactUrl,
  withDeadline,
  type Db,
  type Deadline,
} from './db/index.ts';
export { availabilityError } from './database-errors.ts';
export {
  ApiKeyError,
  createApiKeyStore,
  type ApiKeyInfo,
  type ApiKeyLookup,
  type ApiKeyStore,
  type CreatedApiKey,
  type NewApiKey,
} from './api-keys/api-key-store.ts';
export * from './transfer/index.ts';
export * from './backup/index.ts';
export { DEFAULT_FILE_GRACE_MS, sweepExpired, type SweepCounts, type SweepOptions, type SweepResult } from './retention/sweep.ts';
export {
  claimJudgements,
  liveMonitors,
  monitorCursor,
  onMonitorScanLock,
  recordMonitorStep,
  settleJudgement,
  type ClaimedJudgement,
  type JudgementOutcome,
  type LiveMonitor,
  type MonitorStep,
} from './judgements/index.ts';
