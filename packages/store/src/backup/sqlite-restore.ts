// `weft restore` on SQLite: a backup file (sqlite-backup.ts) written into an empty database with
// SQLite's backup API, after checking it: integrity_check, and the migrations it holds against
// this version's (a newer schema is refused; an older one is migrated forward once restored).
// Only into an empty database: a restore replaces the whole file, so a database holding rows is
// refused rather than overwritten.
import { existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { runMigrations } from '../db/migrate.ts';
import { migrationsFor } from '../db/migrations/index.ts';
import { openSqlite } from '../db/open-sqlite.ts';
import { TransferError } from '../transfer/row-codec.ts';
import { checkSqliteFile, copyPages, type PageProgress } from './sqlite-backup.ts';

export interface SqliteRestoreOptions {
  onProgress?: PageProgress | undefined;
  signal?: AbortSignal | undefined;
}

export interface SqliteRestoreReport {
  /** The backup's latest migration. */
  schema: string;
  /** Migrations of this version applied after the restore (the backup was older). */
  migrated: string[];
  pages: number;
  seconds: number;
}

// Weft's own bookkeeping: present in a freshly migrated database that holds nothing yet.
const BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock']);

/** The first table of the SQLite file at `path` that holds a row; undefined when none does (or no file). */
export function firstTableWithRows(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'")
      .pluck()
      .all() as string[];
    return tables.find(
      (t) =>
        !BOOKKEEPING.has(t) &&
        db
          .prepare(`select exists (select 1 from "${t.replace(/"/g, '""')}")`)
          .pluck()
          .get() === 1,
    );
  } finally {
    db.close();
  }
}

/** Checks `backupFile` against this version; answers its latest migration and the ones to apply after the restore. */
export function checkBackupSchema(backupFile: string): { schema: string; pending: string[] } {
  const applied = checkSqliteFile(backupFile);
  if (applied.length === 0) throw new TransferError(`${backupFile} holds no Weft schema: not a Weft backup.`);
  const known = Object.keys(migrationsFor('sqlite'));
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new TransferError(
      `${backupFile} comes from a newer Weft (its schema has ${unknown.join(', ')}, unknown to this version): restore it with that Weft or a newer one.`,
    );
  }
  return { schema: applied[applied.length - 1] as string, pending: known.filter((name) => !applied.includes(name)) };
}

export async function restoreSqlite(backupFile: string, targetPath: string, opts: SqliteRestoreOptions = {}): Promise<SqliteRestoreReport> {
  const started = performance.now();
  const { schema, pending } = checkBackupSchema(backupFile);
  const holding = firstTableWithRows(targetPath);
  if (holding !== undefined) {
    throw new TransferError(
      `${targetPath} is not empty (its table ${holding} holds rows): restore into an empty database, ` +
        'e.g. set DATABASE_URL to a new file, and keep this one until the restored copy is checked.',
    );
  }
  const source = new BetterSqlite3(backupFile, { readonly: true, fileMustExist: true });
  let pages: number;
  try {
    pages = await copyPages(source, targetPath, opts);
  } finally {
    source.close();
  }
  opts.onProgress?.('end', pages, pages);
  // Opened as the server opens it (WAL mode and all), then brought to this version's schema.
  const db = await openSqlite(targetPath);
  try {
    await runMigrations(db, migrationsFor('sqlite'));
  } finally {
    await db.close();
  }
  checkSqliteFile(targetPath);
  return { schema, migrated: pending, pages, seconds: (performance.now() - started) / 1000 };
}
