// The database foundation of the store: connect, migrate, the typed schema and the few
// dialect-specific SQL helpers. Everything else builds one Kysely query for both databases.
export { openDatabase, type Db, type Dialect, type OpenDatabaseOptions } from './connect.ts';
export type { PgPoolOptions } from './open-postgres.ts';
export { ACCEPTED_DATABASE_URL_FORMS, parseDatabaseUrl, redactUrl, type DatabaseTarget } from './database-url.ts';
export { migrateToLatest, migrateToLatestWithoutTimeout, runMigrations } from './migrate.ts';
export { migrationStatus, pendingMigrationSql, type MigrationState } from './migration-plan.ts';
export { withDeadline, type Deadline } from './deadline.ts';
export { migrationsFor } from './migrations/index.ts';
export type * from './schema.ts';
export {
  jsonParam,
  jsonOf,
  jsonText,
  jsonTextSql,
  refuseNul,
  jsonTextAsWritten,
  jsonTextAsWrittenSql,
  readJson,
  jsonByteLength,
  textContains,
  bytewiseText,
  maxBindParameters,
  nowIso,
  toIsoDatetime,
  isoPlusDays,
} from './dialect-helpers.ts';
export { asWritten, type DialectSource, type JsonSource, type AsWrittenColumn, type JsonTypeName } from './dialect-source.ts';
export { jsonPathExtract, jsonPathType, jsonPathAsNumber, jsonPathAsText, pgExtractAsWritten, jsonStrings } from './dialect-json-paths.ts';
export {
  joinRowValues,
  rowValuesJoin,
  rowValuesLookupIsOptional,
  jsonPathsReadOnce,
  type JsonPathsReadOnce,
} from './dialect-table-rows.ts';
