// Consistent backups of a running SQLite database and their restore: `weft backup`, `weft restore`.
// (PostgreSQL is backed up with pg_dump and restored with pg_restore: see the README's Backups.)
export {
  backupSqlite,
  checkSqliteFile,
  fileSha256,
  sqliteFileFacts,
  type PageProgress,
  type SqliteBackupOptions,
  type SqliteBackupReport,
  type SqliteFileFacts,
} from './sqlite-backup.ts';
export {
  checkBackupSchema,
  firstTableWithRows,
  restoreSqlite,
  type SqliteRestoreOptions,
  type SqliteRestoreReport,
} from './sqlite-restore.ts';
